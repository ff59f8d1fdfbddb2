//! Charts, drawn by plotters into a display list of pixel primitives that the page paints on
//! a canvas and the command line writes as SVG or PNG, so both show the same picture.
//!
//! - [`display`]: the display list, the recording backend (a fixed text measure, so layout
//!   never depends on a font) and replay onto any plotters backend.
//! - [`axis`]: ticks and the number, duration and time formats.
//! - [`chart`]: a finished chart (hit regions, its numbers as a table), options, the palette
//!   and the frame cartesian charts share.
//! - [`compare`]: the charts comparing policies' runs.
//! - [`gantt`]: the Gantt chart's raster and its frame.
//! - [`learn`]: one step of a lesson (the Learn view): jobs on processors, what runs until its
//!   estimate ends, reservations and the shadow time.
//! - [`generic`]: charts of any table of numbers (bars, grouped bars, lines, error bars,
//!   heatmaps) from a serde spec, for the studies' figures and the trace's shape.
//! - [`answer`]: the comparison said in words, on the page's first screen.
//! - [`html`]: HTML the page puts in place as it is (tables, lists, forms), escaped.
//! - [`policies`]: the page's policy panel from a link, and the runs and link its values ask for.
//! - `multiples` and `line_labels`: what keeps line charts of many runs legible (a panel per
//!   run; names written beside lines where they fit).

pub mod answer;
pub mod axis;
pub mod board;
pub mod chart;
pub mod compare;
pub mod display;
pub mod gantt;
pub mod generic;
pub mod html;
pub mod learn;
mod line_labels;
mod multiples;
#[cfg(not(target_arch = "wasm32"))]
pub mod native;
pub mod policies;
pub mod report;
pub mod table;
