"""The rules wing: what a game is. Variants and their names (`variants`), every fact derived from a
variant's shape (`geometry`, `masks`), immutable positions and their legality (`position`, `gravity`),
values and their one-byte encoding (`values`), canonical forms under symmetry (`canonical`) and game
counts (`perft`).

Imports no other wing; every other wing imports it.
"""
