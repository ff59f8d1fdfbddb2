//! Chart geometry computed in Rust so it can be tested natively: the Gantt chart's raster.

pub mod gantt;
