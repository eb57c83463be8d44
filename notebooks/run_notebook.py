"""Runs a notebook's code cells in order without Jupyter (a smoke check): python3 run_notebook.py NB.ipynb

Prints the value of each cell's last expression, as Jupyter would show it."""
import ast
import json
import sys

nb = json.load(open(sys.argv[1]))
env = {}
for i, c in enumerate(nb["cells"]):
    if c["cell_type"] != "code":
        continue
    tree = ast.parse("".join(c["source"]))
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, f"cell {i}", "exec"), env)
    if last is not None:
        value = eval(compile(ast.Expression(last.value), f"cell {i}", "eval"), env)
        if value is not None:
            print(f"--- cell {i}\n{value}")
