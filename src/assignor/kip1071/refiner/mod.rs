//! Trunk's warm-up refiner (placeholder while it is written).
