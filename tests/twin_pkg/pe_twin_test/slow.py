"""A well-formed plugin whose import takes 2.5 s (more than the 2 s the host tolerates
without a word): every command waits for it, and says so."""
import time

PUZZLE_ENGINE_CONTRACT = 3

time.sleep(2.5)
