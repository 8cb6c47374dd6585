"""Grading: torch-free judging of answers against the truth real torch produced in the sandbox.

Entry points: ``tutor.grading.engine`` (``plan``/``judge``/``grade``/``grade_async``),
``tutor.grading.variants`` (params from a seed, rendered text), ``tutor.grading.packcheck``
(the sandbox stage of ``tutor pack check``). How each drill kind is graded: docs/grading.md.
"""
