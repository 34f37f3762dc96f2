//! The renderer: draws boards in the look of the real game, for samples and the practice window.
