"""Runs a notebook top to bottom with Jupyter's own executor (nbclient) and writes it with its outputs:

    python3 execute.py NOTEBOOK.ipynb EXECUTED.ipynb [TIMEOUT_SECONDS]

The notebook runs in this folder (so `ackscope_output` imports) with the environment it was given (ACKSCOPE_OUT,
ACKSCOPE_BEFORE, ACKSCOPE_AFTER name the outputs). Exit status 1 and the failing cell's error when a cell fails.
"""
import sys

import nbclient
import nbformat

source, target = sys.argv[1], sys.argv[2]
timeout = int(sys.argv[3]) if len(sys.argv) > 3 else 300
nb = nbformat.read(source, as_version=4)
nbformat.validate(nb)   # cell ids and the rest of nbformat 4.5, as Jupyter would check them
client = nbclient.NotebookClient(nb, timeout=timeout, kernel_name="python3",
                                 resources={"metadata": {"path": "."}})
try:
    client.execute()
except nbclient.exceptions.CellExecutionError as e:
    nbformat.write(nb, target)
    print(str(e).splitlines()[-1] if str(e) else repr(e), file=sys.stderr)
    sys.exit(1)
nbformat.write(nb, target)
