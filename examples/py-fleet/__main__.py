"""Entry point for `pulumi up` with the Python language host."""
from fleet import program

program()
