"""The opening books: every move's exact value in the first plies of a board, read from a book file.

One wing with one storage, the `.book` file: `file` (its format), `source` (the books as a source of
answers), `build` (proving a board's first plies into a book), `connect4` and `published` (Connect Four's
book from published data, checked), `check` (a book against our own search), `arrays` and `retrograde`
(the numpy work of both), `supply`, `background` and `builds` (which books answer now, and the Connect
Four build in the background). The books installed with the package are in `data/`.
"""
