"""The tables wing: every position's exact value, solved once and kept on disk. A board's two parts
(`parts`), the ranked layout (`layout`), the classes under symmetry (`orbits`, `classes`; one
position's class ranked fast by `class_lookup`), the retrograde solvers (`solver` with `panel_maps`,
`gravity_solver`), the file format and its checks (`table_file`, `table`), a directory of tables
(`store`), what a build needs (`build_plan`), the queue and the host's one background builder
(`build_queue`, `builder`, `locks`), the solve-table stream (`stream`), and `supply`: which table
answers a variant now, the one rule for the service and the command line.

Imports the rules wing only.
"""
