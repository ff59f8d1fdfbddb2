//! A chart as a list of drawing primitives in pixels, recorded from plotters and replayed onto
//! any plotters backend.
//!
//! Charts are laid out once, against a backend ([`Recorder`]) whose text measure is a fixed
//! formula rather than a real font: browsers and native fonts measure text differently, so
//! a layout that asked a font would put axes a few pixels apart in the page and the CLI's
//! picture. Recorded with the formula, the geometry is the same everywhere and can be hashed
//! ([`DisplayList::hash`]) and tested; only the glyphs themselves come from whatever font the
//! final backend has.

use plotters_backend::text_anchor::{HPos, Pos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind, FontFamily,
    FontStyle, FontTransform,
};
use serde::Serialize;

/// An sRGB colour with 8-bit alpha (255 = opaque); integers so the hash is exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Colour {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Opacity.
    pub a: u8,
}

impl Colour {
    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Colour {
        Colour { r, g, b, a: 255 }
    }

    fn from_backend(c: BackendColor) -> Colour {
        let (r, g, b) = c.rgb;
        Colour { r, g, b, a: (c.alpha.clamp(0.0, 1.0) * 255.0).round() as u8 }
    }

    /// The colour as plotters' backends take it.
    pub fn backend(self) -> BackendColor {
        BackendColor { alpha: self.a as f64 / 255.0, rgb: (self.r, self.g, self.b) }
    }
}

/// Where a text's anchor point sits on the text: horizontally.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HAnchor {
    /// At the start of the text.
    Left,
    /// In the middle.
    Center,
    /// At the end.
    Right,
}

/// Where a text's anchor point sits on the text: vertically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum VAnchor {
    /// At the top of the line.
    Top,
    /// In the middle.
    Center,
    /// At the bottom.
    Bottom,
}

/// One drawing operation in pixel coordinates of the chart (origin top left).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Primitive {
    /// A rectangle from (x0, y0) to (x1, y1), as plotters passes corners to its backends.
    Rect {
        /// Left.
        x0: i32,
        /// Top.
        y0: i32,
        /// Right.
        x1: i32,
        /// Bottom.
        y1: i32,
        /// Colour.
        colour: Colour,
        /// Filled, or only its outline.
        fill: bool,
        /// Outline width.
        width: u32,
    },
    /// A polyline.
    Path {
        /// Its points.
        points: Vec<(i32, i32)>,
        /// Colour.
        colour: Colour,
        /// Line width.
        width: u32,
    },
    /// A circle.
    Circle {
        /// Centre x.
        x: i32,
        /// Centre y.
        y: i32,
        /// Radius.
        radius: u32,
        /// Colour.
        colour: Colour,
        /// Filled, or only its outline.
        fill: bool,
        /// Outline width.
        width: u32,
    },
    /// A filled polygon.
    Polygon {
        /// Its corners.
        points: Vec<(i32, i32)>,
        /// Colour.
        colour: Colour,
    },
    /// A line of text.
    Text {
        /// The text.
        text: String,
        /// Anchor x.
        x: i32,
        /// Anchor y.
        y: i32,
        /// Font size in CSS pixels (the em size, as a canvas's `font` takes it).
        size: f64,
        /// Colour.
        colour: Colour,
        /// Bold, or normal weight.
        bold: bool,
        /// Which point of the text (x, y) is, horizontally.
        h: HAnchor,
        /// Which point of the text (x, y) is, vertically.
        v: VAnchor,
        /// Clockwise rotation about the anchor, in degrees: 0, 90, 180 or 270.
        rotation: u16,
    },
}

/// The font every chart asks for; the backend's own sans-serif draws it.
pub const FONT_FAMILY: &str = "sans-serif";

/// Width per character of the layout's text measure, as a share of the font size: a little
/// over the mean advance of common sans-serif fonts over digits and lower case (Arial's digits
/// are 0.56 em, DejaVu Sans's 0.64), so labels laid out by it fit the wider fonts too.
pub const CHAR_WIDTH: f64 = 0.6;

/// The layout's text measure: (width, height) in pixels of `text` at `size` px, the same on
/// every target because it depends on the characters only.
pub fn text_size(text: &str, size: f64) -> (u32, u32) {
    ((text.chars().count() as f64 * size * CHAR_WIDTH).round() as u32, size.round() as u32)
}

/// A whole chart's drawing operations, in order.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct DisplayList {
    /// The operations, painted first to last.
    pub items: Vec<Primitive>,
}

impl DisplayList {
    /// Replays every primitive onto `db` (a canvas, SVG or bitmap backend), text sizes in CSS
    /// pixels as a canvas takes them. Backend errors are ignored: a half-painted chart is
    /// still the most useful thing to show.
    pub fn paint<DB: DrawingBackend>(&self, db: &mut DB) {
        self.replay(db, TextPen::of);
    }

    /// [`DisplayList::paint`] with each text's style built by `pen`, so SVG output can correct
    /// the font size (SVGBackend writes `font-size` as the size over 1.24) and a bitmap can
    /// bring a real font.
    pub(crate) fn replay<DB: DrawingBackend, T: BackendTextStyle>(&self, db: &mut DB, pen: impl Fn(&Primitive) -> T) {
        for p in &self.items {
            let _ = match p {
                Primitive::Rect { x0, y0, x1, y1, colour, fill, width } => {
                    db.draw_rect((*x0, *y0), (*x1, *y1), &Pen(*colour, *width), *fill)
                }
                Primitive::Path { points, colour, width } => {
                    db.draw_path(points.iter().copied(), &Pen(*colour, *width))
                }
                Primitive::Circle { x, y, radius, colour, fill, width } => {
                    db.draw_circle((*x, *y), *radius, &Pen(*colour, *width), *fill)
                }
                Primitive::Polygon { points, colour } => db.fill_polygon(points.iter().copied(), &Pen(*colour, 1)),
                Primitive::Text { text, x, y, .. } => db.draw_text(text, &pen(p), (*x, *y)),
            };
        }
    }

    /// Every text drawn, in drawing order (what a chart says, for checks).
    pub fn texts(&self) -> Vec<&str> {
        self.items
            .iter()
            .filter_map(|p| match p {
                Primitive::Text { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    /// 16 hex digits of FNV-1a 64 over every primitive's integers, colours and text bytes:
    /// equal on every target for the same chart, different when any pixel of the geometry moves.
    pub fn hash(&self) -> String {
        let mut h = Fnv::new();
        for p in &self.items {
            match p {
                Primitive::Rect { x0, y0, x1, y1, colour, fill, width } => {
                    h.byte(1);
                    h.ints(&[*x0, *y0, *x1, *y1, *fill as i32, *width as i32]);
                    h.colour(*colour);
                }
                Primitive::Path { points, colour, width } => {
                    h.byte(2);
                    h.ints(&[points.len() as i32, *width as i32]);
                    for &(x, y) in points {
                        h.ints(&[x, y]);
                    }
                    h.colour(*colour);
                }
                Primitive::Circle { x, y, radius, colour, fill, width } => {
                    h.byte(3);
                    h.ints(&[*x, *y, *radius as i32, *fill as i32, *width as i32]);
                    h.colour(*colour);
                }
                Primitive::Polygon { points, colour } => {
                    h.byte(4);
                    h.ints(&[points.len() as i32]);
                    for &(x, y) in points {
                        h.ints(&[x, y]);
                    }
                    h.colour(*colour);
                }
                Primitive::Text { text, x, y, size, colour, bold, h: ha, v, rotation } => {
                    h.byte(5);
                    h.ints(&[
                        *x,
                        *y,
                        (size * 10.0).round() as i32,
                        *bold as i32,
                        *ha as i32,
                        *v as i32,
                        *rotation as i32,
                    ]);
                    h.colour(*colour);
                    h.ints(&[text.len() as i32]);
                    for b in text.bytes() {
                        h.byte(b);
                    }
                }
            }
        }
        format!("{:016x}", h.0)
    }
}

struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn byte(&mut self, b: u8) {
        self.0 ^= b as u64;
        self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
    }
    fn ints(&mut self, v: &[i32]) {
        for x in v {
            for b in x.to_le_bytes() {
                self.byte(b);
            }
        }
    }
    fn colour(&mut self, c: Colour) {
        for b in [c.r, c.g, c.b, c.a] {
            self.byte(b);
        }
    }
}

/// A shape style: colour and line width.
struct Pen(Colour, u32);

impl BackendStyle for Pen {
    fn color(&self) -> BackendColor {
        self.0.backend()
    }
    fn stroke_width(&self) -> u32 {
        self.1
    }
}

/// A text style carrying only what the display list recorded; it measures with the layout
/// formula and has no glyphs, which canvas and SVG backends never ask for.
pub(crate) struct TextPen {
    pub(crate) size: f64,
    pub(crate) colour: Colour,
    pub(crate) bold: bool,
    pub(crate) h: HAnchor,
    pub(crate) v: VAnchor,
    pub(crate) rotation: u16,
}

impl TextPen {
    pub(crate) fn of(p: &Primitive) -> TextPen {
        match p {
            Primitive::Text { size, colour, bold, h, v, rotation, .. } => {
                TextPen { size: *size, colour: *colour, bold: *bold, h: *h, v: *v, rotation: *rotation }
            }
            _ => TextPen {
                size: 12.0,
                colour: Colour::rgb(0, 0, 0),
                bold: false,
                h: HAnchor::Left,
                v: VAnchor::Top,
                rotation: 0,
            },
        }
    }

    pub(crate) fn pos(&self) -> Pos {
        let h = match self.h {
            HAnchor::Left => HPos::Left,
            HAnchor::Center => HPos::Center,
            HAnchor::Right => HPos::Right,
        };
        let v = match self.v {
            VAnchor::Top => VPos::Top,
            VAnchor::Center => VPos::Center,
            VAnchor::Bottom => VPos::Bottom,
        };
        Pos::new(h, v)
    }

    pub(crate) fn font_transform(&self) -> FontTransform {
        match self.rotation {
            90 => FontTransform::Rotate90,
            180 => FontTransform::Rotate180,
            270 => FontTransform::Rotate270,
            _ => FontTransform::None,
        }
    }
}

/// The error of a text style that cannot fail.
#[derive(Debug, Clone, Copy)]
pub struct NoFontError;

impl std::fmt::Display for NoFontError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("no font")
    }
}

impl std::error::Error for NoFontError {}

impl BackendTextStyle for TextPen {
    type FontError = NoFontError;
    fn color(&self) -> BackendColor {
        self.colour.backend()
    }
    fn size(&self) -> f64 {
        self.size
    }
    fn transform(&self) -> FontTransform {
        self.font_transform()
    }
    fn style(&self) -> FontStyle {
        if self.bold {
            FontStyle::Bold
        } else {
            FontStyle::Normal
        }
    }
    fn anchor(&self) -> Pos {
        self.pos()
    }
    fn family(&self) -> FontFamily<'_> {
        FontFamily::SansSerif
    }
    fn layout_box(&self, text: &str) -> Result<((i32, i32), (i32, i32)), NoFontError> {
        let (w, h) = text_size(text, self.size);
        Ok(((0, 0), (w as i32, h as i32)))
    }
    fn draw<E, F: FnMut(i32, i32, BackendColor) -> Result<(), E>>(
        &self,
        _text: &str,
        _pos: BackendCoord,
        _draw: F,
    ) -> Result<Result<(), E>, NoFontError> {
        Ok(Ok(()))
    }
}

/// A plotters backend that draws nothing and records every call into a [`DisplayList`],
/// measuring text with [`text_size`] so the layout is the same on every target.
pub struct Recorder<'a> {
    size: (u32, u32),
    list: &'a mut DisplayList,
}

impl<'a> Recorder<'a> {
    /// A recorder of `width` x `height` pixels appending to `list` (read it once the drawing
    /// areas built on the recorder are dropped, as with plotters' SVG backend and its string).
    pub fn new(list: &'a mut DisplayList, width: u32, height: u32) -> Recorder<'a> {
        Recorder { size: (width, height), list }
    }
}

impl DrawingBackend for Recorder<'_> {
    type ErrorType = std::convert::Infallible;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.list.items.push(Primitive::Rect {
            x0: point.0,
            y0: point.1,
            x1: point.0 + 1,
            y1: point.1 + 1,
            colour: Colour::from_backend(color),
            fill: true,
            width: 1,
        });
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.draw_path([from, to], style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.list.items.push(Primitive::Rect {
            x0: upper_left.0,
            y0: upper_left.1,
            x1: bottom_right.0,
            y1: bottom_right.1,
            colour: Colour::from_backend(style.color()),
            fill,
            width: style.stroke_width(),
        });
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let points: Vec<(i32, i32)> = path.into_iter().collect();
        if points.len() >= 2 {
            self.list.items.push(Primitive::Path {
                points,
                colour: Colour::from_backend(style.color()),
                width: style.stroke_width(),
            });
        }
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.list.items.push(Primitive::Circle {
            x: center.0,
            y: center.1,
            radius,
            colour: Colour::from_backend(style.color()),
            fill,
            width: style.stroke_width(),
        });
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.list.items.push(Primitive::Polygon {
            points: vert.into_iter().collect(),
            colour: Colour::from_backend(style.color()),
        });
        Ok(())
    }

    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        // An empty text paints nothing; axes ask for one at each tick whose label was left out.
        if text.is_empty() {
            return Ok(());
        }
        let anchor = style.anchor();
        self.list.items.push(Primitive::Text {
            text: text.to_string(),
            x: pos.0,
            y: pos.1,
            size: style.size(),
            colour: Colour::from_backend(style.color()),
            bold: matches!(style.style(), FontStyle::Bold),
            h: match anchor.h_pos {
                HPos::Left => HAnchor::Left,
                HPos::Center => HAnchor::Center,
                HPos::Right => HAnchor::Right,
            },
            v: match anchor.v_pos {
                VPos::Top => VAnchor::Top,
                VPos::Center => VAnchor::Center,
                VPos::Bottom => VAnchor::Bottom,
            },
            rotation: match style.transform() {
                FontTransform::Rotate90 => 90,
                FontTransform::Rotate180 => 180,
                FontTransform::Rotate270 => 270,
                FontTransform::None => 0,
            },
        });
        Ok(())
    }

    fn estimate_text_size<T: BackendTextStyle>(
        &self,
        text: &str,
        style: &T,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        Ok(text_size(text, style.size()))
    }

    fn blit_bitmap(
        &mut self,
        _pos: BackendCoord,
        _size: (u32, u32),
        _src: &[u8],
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        // Rasters (the Gantt chart) are painted by the page or the native writer, never recorded.
        Ok(())
    }
}
