"""The systems of the other source documents, as selectable methods (docs/methods.md).

Each shares decoding, parsing, the metadata (webclean/metadata.py, read before a method
edits the tree) and the result type with the SVM methods; only the steps from the
parsed tree to the text differ. Each module's ``run`` is the method's pipeline in
webclean/registry.py:

- ``blocks``: DOM block scoring, after a master's thesis, chapter 3 (methods/blocks.py);
- ``ladom``: link-noise marking on the LA-DOM tree and anchored extraction, after
  Chen, Li, Chen and Li, Journal of Yanshan University 31(6), 2007 (methods/ladom.py);
- ``mlp``: a multi-layer perceptron over the lines of the page, after a BP network
  over lines (methods/mlp.py), with its own trained model.
"""
