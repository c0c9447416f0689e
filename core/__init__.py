"""The bottom layer: the data every other layer passes around (:mod:`core.types`) and the errors it raises
(:mod:`core.errors`). It imports nothing of the product's."""
