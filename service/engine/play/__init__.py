"""The play wing: what to do with values. Move choosers by name (`policies`, `strategy`, `heuristic`),
reviews of played games (`review`), the line of perfect play (`mainline`) and how strong each policy
is (`strength`).

Imports the rules and tables wings, and the front door's answer shape (`..answer`): a policy or a
review reads answers from any source (a table, or the analyst within a budget), never deciding which.
"""
