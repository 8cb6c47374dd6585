"""The recompilation lab (chapter 11): compiles per step, with and without padding."""
