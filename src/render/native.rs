//! Native pictures: charts as PNG (plotters' bitmap backend, text in an embedded DejaVu Sans)
//! and the small encoders the Gantt chart's SVG needs for its raster.
//!
//! Compiled natively only: the page paints the same display lists on a canvas instead.

use std::sync::OnceLock;

use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};
use plotters::backend::BitMapBackend;
use plotters_backend::{
    BackendColor, BackendCoord, BackendTextStyle, DrawingBackend, FontFamily, FontStyle, FontTransform,
};

use super::chart::Chart;
use super::display::{DisplayList, NoFontError, Primitive, TextPen};

/// DejaVu Sans regular and bold, parsed once.
fn fonts() -> &'static (FontRef<'static>, FontRef<'static>) {
    static FONTS: OnceLock<(FontRef<'static>, FontRef<'static>)> = OnceLock::new();
    FONTS.get_or_init(|| {
        let regular = FontRef::try_from_slice(dejavu::sans::regular()).expect("DejaVu Sans parses");
        let bold = FontRef::try_from_slice(dejavu::sans::bold()).expect("DejaVu Sans Bold parses");
        (regular, bold)
    })
}

/// A text style that measures and draws real glyphs, placed as a canvas would: the em box
/// from 0.8 em above the baseline to 0.2 em below it is what the anchor refers to.
struct GlyphPen {
    pen: TextPen,
}

impl GlyphPen {
    fn font(&self) -> &'static FontRef<'static> {
        let f = fonts();
        if self.pen.bold {
            &f.1
        } else {
            &f.0
        }
    }

    /// The ab_glyph scale whose em is the pen's size in pixels.
    fn scale(&self) -> PxScale {
        let f = self.font();
        let upem = f.units_per_em().unwrap_or(2048.0);
        PxScale::from(self.pen.size as f32 * f.height_unscaled() / upem)
    }

    fn advance(&self, text: &str) -> f32 {
        let f = self.font().as_scaled(self.scale());
        let mut x = 0.0;
        let mut prev = None;
        for c in text.chars() {
            let id = f.glyph_id(c);
            if let Some(p) = prev {
                x += f.kern(p, id);
            }
            x += f.h_advance(id);
            prev = Some(id);
        }
        x
    }
}

impl BackendTextStyle for GlyphPen {
    type FontError = NoFontError;
    fn color(&self) -> BackendColor {
        self.pen.colour.backend()
    }
    fn size(&self) -> f64 {
        self.pen.size
    }
    fn transform(&self) -> FontTransform {
        self.pen.font_transform()
    }
    fn style(&self) -> FontStyle {
        if self.pen.bold {
            FontStyle::Bold
        } else {
            FontStyle::Normal
        }
    }
    fn anchor(&self) -> plotters_backend::text_anchor::Pos {
        self.pen.pos()
    }
    fn family(&self) -> FontFamily<'_> {
        FontFamily::SansSerif
    }
    fn layout_box(&self, text: &str) -> Result<((i32, i32), (i32, i32)), NoFontError> {
        let em = self.pen.size;
        Ok(((0, -(em * 0.8).round() as i32), (self.advance(text).round() as i32, (em * 0.2).round() as i32)))
    }
    fn draw<E, F: FnMut(i32, i32, BackendColor) -> Result<(), E>>(
        &self,
        text: &str,
        pos: BackendCoord,
        mut draw: F,
    ) -> Result<Result<(), E>, NoFontError> {
        let font = self.font();
        let scale = self.scale();
        let f = font.as_scaled(scale);
        let colour = self.color();
        let mut caret = 0.0f32;
        let mut prev = None;
        for c in text.chars() {
            let id = f.glyph_id(c);
            if let Some(p) = prev {
                caret += f.kern(p, id);
            }
            let glyph = id.with_scale_and_position(scale, point(caret, 0.0));
            caret += f.h_advance(id);
            prev = Some(id);
            let Some(outline) = font.outline_glyph(glyph) else { continue };
            let b = outline.px_bounds();
            let mut pixels = Vec::new();
            outline.draw(|x, y, cov| pixels.push((x, y, cov)));
            for (x, y, cov) in pixels {
                if cov <= 0.0 {
                    continue;
                }
                let px = pos.0 + b.min.x as i32 + x as i32;
                let py = pos.1 + b.min.y as i32 + y as i32;
                if let Err(e) = draw(px, py, colour.mix(cov.min(1.0) as f64)) {
                    return Ok(Err(e));
                }
            }
        }
        Ok(Ok(()))
    }
}

impl DisplayList {
    /// The list with every coordinate, width and font size multiplied by `k`, for pictures
    /// drawn at a higher pixel density than the layout.
    pub fn scaled(&self, k: u32) -> DisplayList {
        let k = k.max(1) as i32;
        let pt = |p: &(i32, i32)| (p.0 * k, p.1 * k);
        let items = self
            .items
            .iter()
            .map(|p| match p.clone() {
                Primitive::Rect { x0, y0, x1, y1, colour, fill, width } => Primitive::Rect {
                    x0: x0 * k,
                    y0: y0 * k,
                    x1: x1 * k,
                    y1: y1 * k,
                    colour,
                    fill,
                    width: width * k as u32,
                },
                Primitive::Path { points, colour, width } => {
                    Primitive::Path { points: points.iter().map(pt).collect(), colour, width: width * k as u32 }
                }
                Primitive::Circle { x, y, radius, colour, fill, width } => Primitive::Circle {
                    x: x * k,
                    y: y * k,
                    radius: radius * k as u32,
                    colour,
                    fill,
                    width: width * k as u32,
                },
                Primitive::Polygon { points, colour } => {
                    Primitive::Polygon { points: points.iter().map(pt).collect(), colour }
                }
                Primitive::Text { text, x, y, size, colour, bold, h, v, rotation } => {
                    Primitive::Text { text, x: x * k, y: y * k, size: size * k as f64, colour, bold, h, v, rotation }
                }
            })
            .collect();
        DisplayList { items }
    }
}

/// Paints `list` into an RGB buffer of `width` x `height` pixels (white background).
pub fn rasterize(list: &DisplayList, width: u32, height: u32) -> Vec<u8> {
    let mut rgb = vec![255u8; width as usize * height as usize * 3];
    {
        let mut bitmap = BitMapBackend::with_buffer(&mut rgb, (width, height));
        list.replay(&mut bitmap, |p| GlyphPen { pen: TextPen::of(p) });
        let _ = bitmap.present();
    }
    rgb
}

/// Encodes 8-bit pixels (3 bytes a pixel for RGB, 4 for RGBA) as a PNG file.
pub fn encode_png(pixels: &[u8], width: u32, height: u32, alpha: bool) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(if alpha { png::ColorType::Rgba } else { png::ColorType::Rgb });
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Balanced);
        let mut w = enc.write_header().expect("PNG header into memory");
        w.write_image_data(pixels).expect("PNG data of the declared size");
    }
    out
}

/// Standard base64 with padding, for `data:` URLs.
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16 | (*c.get(1).unwrap_or(&0) as u32) << 8 | *c.get(2).unwrap_or(&0) as u32;
        out.push(A[(n >> 18) as usize & 63] as char);
        out.push(A[(n >> 12) as usize & 63] as char);
        out.push(if c.len() > 1 { A[(n >> 6) as usize & 63] as char } else { '=' });
        out.push(if c.len() > 2 { A[n as usize & 63] as char } else { '=' });
    }
    out
}

impl Chart {
    /// The chart as a PNG file, drawn at `scale` times its size (2 for sharp pictures on
    /// high-density screens and in documents).
    pub fn png(&self, scale: u32) -> Vec<u8> {
        let k = scale.max(1);
        let (w, h) = (self.width * k, self.height * k);
        encode_png(&rasterize(&self.list.scaled(k), w, h), w, h, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_pads_like_the_standard() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn text_is_drawn_with_real_glyphs_below_a_top_anchor() {
        let mut list = DisplayList::default();
        list.items.push(Primitive::Text {
            text: "Hi".to_string(),
            x: 10,
            y: 10,
            size: 20.0,
            colour: super::super::display::Colour::rgb(0, 0, 0),
            bold: false,
            h: super::super::display::HAnchor::Left,
            v: super::super::display::VAnchor::Top,
            rotation: 0,
        });
        let rgb = rasterize(&list, 60, 40);
        let dark: Vec<(usize, usize)> =
            (0..40).flat_map(|y| (0..60).map(move |x| (x, y))).filter(|&(x, y)| rgb[(y * 60 + x) * 3] < 128).collect();
        assert!(!dark.is_empty());
        let top = dark.iter().map(|p| p.1).min().unwrap();
        let bottom = dark.iter().map(|p| p.1).max().unwrap();
        let left = dark.iter().map(|p| p.0).min().unwrap();
        // Capitals reach about 0.73 em above the baseline at 0.8 em below the anchor.
        assert!((10..=14).contains(&top), "top {top}");
        assert!((24..=26).contains(&bottom), "bottom {bottom}");
        assert!((10..=13).contains(&left), "left {left}");
    }
}
