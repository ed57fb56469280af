"""Analysis passes: pure functions over the model that decide what the templates only show.

Each module reads as one sitting and depends on nothing but the model, so a wire family can host its passes.
"""
