"""The submission grader's pieces (grade_submission.py, leaderboard.py).

Standard library only. Each module holds one idea: groups (a stage's test
groups), rubric (points per part), gtest_log (what a test run printed),
limits (a process under a time and a memory limit), sandbox (the
bubblewrap confinement every process of a submission runs in),
source_tree (the tree a grade builds), machine (what the grade ran on),
parts (each part of the grade), report (table, block and JSON),
leaderboard (many grades).
"""
