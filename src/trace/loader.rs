//! Streaming ingestion: SWF bytes (plain or gzip) arrive in chunks of any size and are scanned
//! line by line into a compact record list of about 20 bytes a job, the *packed trace*.
//!
//! The page reads a file of a gigabyte this way without holding it: a worker feeds the file's
//! chunks to a [`Loader`], keeps the packed bytes and hands them to every simulation, and
//! [`super::parse`] turns packed bytes into jobs under any [`super::TraceOptions`] exactly as it
//! would the text. Whole-file parsing goes through the same scan, so both paths agree line for
//! line. The packed form keeps every SWF field the trace options can read, so the options are
//! applied at parse time, not at load time.

use std::borrow::Cow;
use std::io::Write;

use super::accounting::{Every, First, Formats, Reader, SwfOnly};
use super::swf::{parse_job_line, Header, LineError, FIELD_NAMES};
use super::MAX_REPORTED_ERRORS;

/// Longest line read; a longer one is reported and skipped (a binary file may have no newline).
pub const MAX_LINE: usize = 1 << 16;

/// Header lines kept verbatim; further ones are counted only.
pub const MAX_HEADER_LINES: usize = 10_000;

/// Job lines the page keeps by default: ten times the largest archive log here, about 40 MB
/// packed. A simulating worker needs about 0.4 KB a job (the jobs, the engine's records and the
/// metrics' sorted copies), so at the limit each worker stays under a gigabyte while the tab
/// runs several. The command line reads any size.
pub const PAGE_JOB_LIMIT: u64 = 2_000_000;

/// Why a JSON file is refused: what it is, and what to run instead.
const JSON: &str = "this is JSON, as Slurm's sacct --json and squeue --json write it, not a log SchedLab reads. For finished jobs, run sacct -X -P --allusers --starttime 2026-10-01 --endtime 2026-11-01 --format JobIDRaw,Submit,Start,End,AllocCPUS,ReqCPUS,Timelimit,State,User,Group,Partition > jobs.txt and load jobs.txt. squeue --json lists the jobs pending and running now, never finished ones: it is no accounting log, and no trace can be made from it";

/// First bytes of a packed trace: a NUL, so no SWF text can start this way.
const MAGIC: &[u8; 16] = b"\0SCHEDLAB-PACK4\n";

/// The SWF fields a packed record keeps (0-based): every one a trace option or a job reads.
pub(super) const STORED: [usize; 18] = [0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 14, 15, GPUS, NODES, FLAGS, QOS];

/// A job record: the 18 SWF fields, then what an accounting log says a job held besides
/// processors and memory (SWF has no field for them; -1 when not said).
pub(super) type Fields = [i64; WIDTH];

/// Fields in a [`Fields`] record.
pub(super) const WIDTH: usize = 22;
/// GPUs the job held.
pub(super) const GPUS: usize = 18;
/// Nodes the job held.
pub(super) const NODES: usize = 19;
/// Flags: [`EXCLUSIVE`].
pub(super) const FLAGS: usize = 20;
/// The job's QOS, numbered in order of appearance from 1.
pub(super) const QOS: usize = 21;
/// In [`FLAGS`]: the job had its nodes to itself.
pub(super) const EXCLUSIVE: i64 = 1;

/// An SWF line's fields as a record: nothing said beyond them.
fn widen(f: &[i64; 18]) -> Fields {
    let mut out = [-1; WIDTH];
    out[..18].copy_from_slice(f);
    out
}

/// True when `bytes` are a packed trace made by [`Loader::finish`].
pub fn is_packed(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Whether `bytes` begin a gzip stream.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// One scanned job line: its line number and its 18 fields (the unstored ones are 0).
pub(super) struct Record {
    /// 1-based line in the (decompressed) file.
    pub line: u64,
    /// The SWF fields and the held resources.
    pub f: Fields,
}

/// Everything the scan learnt, before any trace option is applied.
pub(super) struct Scanned<'a> {
    pub lines_read: u64,
    pub header_lines: u64,
    pub blank_lines: u64,
    pub job_lines: u64,
    /// Header lines kept, with their line numbers (the text after `;`).
    pub header_text: Vec<(u64, String)>,
    pub errors: Vec<LineError>,
    pub errors_total: u64,
    pub warnings: Vec<String>,
    /// Why the input cannot be read at all (an archive, a corrupt gzip stream).
    pub fatal: Option<String>,
    /// Lines of an accounting log that make no job, by reason: (reason, count, first line).
    pub left_out: Vec<(&'static str, u64, u64)>,
    /// An accounting log's machine size as its jobs tell it: the most processors busy at once.
    pub busiest: Option<i64>,
    /// The log gives wall-clock times of the cluster's zone without saying which (sacct, the
    /// Slurm job-completion log): they were read as UTC, and `tz=` reads them in its zone.
    pub local_times: bool,
    /// The accounting format read (one of [`super::accounting::FORMATS`]); `None` for SWF.
    pub format: Option<&'static str>,
    /// The first malformed line that holds control bytes: the file is likely binary.
    pub binary_line: Option<u64>,
    /// The line reading stopped at (a job limit or the user), if it stopped early.
    pub stopped_at_line: Option<u64>,
    /// Records, each a line delta and 18 zigzag varints (job number and submit as deltas).
    pub records: Cow<'a, [u8]>,
    /// How many records.
    pub count: u64,
}

impl Scanned<'_> {
    /// The header, rebuilt from its lines, and the line of the MaxProcs that counts.
    pub fn header(&self) -> (Header, Option<u64>) {
        let mut header = Header::default();
        let mut max_procs_line = None;
        for (line, text) in &self.header_text {
            let before = header.max_procs;
            header.add_line(text);
            let key = text.trim_start().split_once(':').map(|(k, _)| k);
            if key.is_some_and(|k| k.eq_ignore_ascii_case("maxprocs")) || header.max_procs != before {
                max_procs_line = Some(*line);
            }
        }
        (header, max_procs_line)
    }

    /// The records in file order.
    pub fn records(&self) -> Records<'_> {
        Records { bytes: &self.records, at: 0, left: self.count, line: 0, id: 0, submit: 0 }
    }
}

/// Decodes the packed records one by one.
pub(super) struct Records<'a> {
    bytes: &'a [u8],
    at: usize,
    left: u64,
    line: u64,
    id: i64,
    submit: i64,
}

impl Iterator for Records<'_> {
    type Item = Result<Record, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let mut one = || -> Option<Record> {
            self.line = self.line.wrapping_add(varint(self.bytes, &mut self.at)?);
            let mut f = [-1i64; WIDTH];
            for (k, &i) in STORED.iter().enumerate() {
                let v = unzigzag(varint(self.bytes, &mut self.at)?);
                f[i] = match k {
                    0 => self.id.wrapping_add(v),
                    1 => self.submit.wrapping_add(v),
                    _ => v,
                };
            }
            self.id = f[0];
            self.submit = f[1];
            Some(Record { line: self.line, f })
        };
        match one() {
            Some(r) => Some(Ok(r)),
            None => {
                self.left = 0;
                Some(Err(format!("the packed trace is damaged at byte {}", self.at)))
            }
        }
    }
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Some(v);
        }
    }
    None
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

fn get_str(bytes: &[u8], at: &mut usize) -> Option<String> {
    let n = usize::try_from(varint(bytes, at)?).ok()?;
    let s = bytes.get(*at..at.checked_add(n)?)?;
    *at += n;
    Some(String::from_utf8_lossy(s).into_owned())
}

/// How the input is being decoded.
enum Mode<F: Formats> {
    /// Fewer than a few bytes seen: the format is not known yet.
    Sniffing(Vec<u8>),
    Plain,
    Gzip(Box<super::gunzip::Gunzip<Scan<F>>>),
    /// Nothing more is read (a limit, the user, a fault or a refused format).
    Done,
}

/// Reads SWF bytes and accounting logs (plain or gzip) in chunks of any size into a packed trace.
pub struct Loader(Read<Every>);

/// Reads SWF bytes alone (plain or gzip) into a packed trace: a [`Loader`] compiled without the
/// accounting-log readers, for the page's start wasm. Other input is left to a [`Loader`]
/// ([`SwfLoader::wants_readers`]).
pub struct SwfLoader(Read<SwfOnly>);

/// The shared methods of [`Loader`] and [`SwfLoader`].
macro_rules! loader_methods {
    ($t:ident) => {
        impl $t {
            /// A loader that stops after `max_jobs` job records (`None`: no limit).
            pub fn new(max_jobs: Option<u64>) -> $t {
                $t(Read { mode: Mode::Sniffing(Vec::new()), scan: Some(Scan::new(max_jobs)) })
            }

            /// A loader for text already taken out of its gzip stream (a caller that
            /// decompresses on a thread of its own): it reads what it is fed as the gzip
            /// decoder's output.
            pub fn decompressed(max_jobs: Option<u64>) -> $t {
                $t(Read { mode: Mode::Plain, scan: Some(Scan::new(max_jobs)) })
            }

            /// Names the columns of sacct output printed without its header line (`fields=`,
            /// the list given to `sacct --format`); `None` leaves them to a header line or a
            /// known order.
            pub fn fields(mut self, fields: Option<&str>) -> $t {
                if let Some(scan) = self.0.scan.as_mut() {
                    scan.fields = fields.map(str::to_string);
                }
                self
            }

            /// Feeds the next chunk of the file. Returns false once no more input is wanted
            /// (the job limit was reached, or the input cannot be read further); later chunks
            /// are ignored.
            pub fn feed(&mut self, chunk: &[u8]) -> bool {
                self.0.feed(chunk)
            }

            /// Stops reading early for `why` (the user stopped it): the jobs read so far are
            /// kept and the report says at which line reading stopped.
            pub fn interrupt(&mut self, why: &str) {
                self.0.interrupt(why)
            }

            /// Job records kept so far (for progress).
            pub fn jobs(&self) -> u64 {
                self.0.jobs()
            }

            /// Ends the input and returns the scan.
            // Bytes handed over whole are read by one of the two, which one depends on the target.
            #[allow(dead_code)]
            pub(super) fn scanned(self) -> Scanned<'static> {
                self.0.scanned()
            }

            /// Ends the input and returns the packed trace, which [`super::parse`] reads like
            /// the file.
            pub fn finish(self) -> Vec<u8> {
                encode(&self.0.scanned())
            }
        }
    };
}

loader_methods!(Loader);
loader_methods!(SwfLoader);

impl SwfLoader {
    /// True when the input is not SWF: nothing was read, and a [`Loader`] should read the
    /// input from its start.
    pub fn wants_readers(&self) -> bool {
        match &self.0.mode {
            Mode::Gzip(dec) => dec.get_ref().wants_readers,
            _ => self.0.scan.as_ref().is_some_and(|s| s.wants_readers),
        }
    }
}

/// The loader behind [`Loader`] and [`SwfLoader`], reading the formats of `F`.
struct Read<F: Formats> {
    mode: Mode<F>,
    /// The scan, when not inside the gzip decoder.
    scan: Option<Scan<F>>,
}

impl<F: Formats> Read<F> {
    fn feed(&mut self, chunk: &[u8]) -> bool {
        if let Mode::Sniffing(head) = &mut self.mode {
            head.extend_from_slice(chunk);
            if head.len() < 6 {
                return true;
            }
            let head = std::mem::take(head);
            self.decide(&head);
            return self.pass(&head);
        }
        self.pass(chunk)
    }

    /// Chooses plain or gzip decoding from the first bytes, or refuses a known other format.
    fn decide(&mut self, head: &[u8]) {
        let refuse = |what: &str| format!("this is {what}, not SWF text: unpack it first and load the .swf inside");
        let fatal = if head.starts_with(b"PK\x03\x04") {
            Some(refuse("a zip archive"))
        } else if head.starts_with(b"BZh") {
            Some(refuse("a bzip2 file"))
        } else if head.starts_with(b"\xfd7zXZ\0") {
            Some(refuse("an xz file"))
        } else if head.starts_with(b"\x28\xb5\x2f\xfd") {
            Some(refuse("a zstd file"))
        } else if head.starts_with(MAGIC) {
            Some("this is a packed trace, not SWF text: load the original file".to_string())
        } else {
            None
        };
        if let Some(message) = fatal {
            if let Some(scan) = self.scan.as_mut() {
                scan.fatal = Some(message);
            }
            self.mode = Mode::Done;
        } else if is_gzip(head) {
            let scan = self.scan.take().unwrap_or_else(|| Scan::new(None));
            self.mode = Mode::Gzip(Box::new(super::gunzip::Gunzip::new(scan)));
        } else {
            self.mode = Mode::Plain;
        }
    }

    /// Passes bytes on to the scan, directly or through the gzip decoder.
    fn pass(&mut self, bytes: &[u8]) -> bool {
        match &mut self.mode {
            Mode::Plain => {
                if let Some(scan) = self.scan.as_mut() {
                    scan.push(bytes);
                    return !scan.full;
                }
                false
            }
            Mode::Gzip(dec) => {
                let result = dec.write_all(bytes);
                let full = dec.get_ref().full;
                match result {
                    Ok(()) if !full => true,
                    Ok(()) => {
                        self.end_gzip(None);
                        false
                    }
                    Err(e) => {
                        self.end_gzip(Some(e));
                        false
                    }
                }
            }
            Mode::Sniffing(_) | Mode::Done => false,
        }
    }

    /// Takes the scan back out of the gzip decoder, noting a fault if there was one.
    fn end_gzip(&mut self, fault: Option<String>) {
        let Mode::Gzip(dec) = std::mem::replace(&mut self.mode, Mode::Done) else { return };
        let mut dec = *dec;
        let full = dec.get_ref().full;
        // A stream stopped at the job limit is not truncated; one that ended inside a member is.
        let finished = if full || fault.is_some() { Ok(()) } else { dec.try_finish() };
        let fault = fault.or_else(|| finished.err());
        let mut scan = std::mem::replace(dec.get_mut(), Scan::new(None));
        if let Some(e) = fault {
            scan.gzip_fault(&e);
        }
        self.scan = Some(scan);
    }

    fn interrupt(&mut self, why: &str) {
        if let Mode::Gzip(dec) = &mut self.mode {
            // Stopped first, so the unfinished stream is not taken for a corrupt one.
            dec.get_mut().stop(why);
            self.end_gzip(None);
        } else if let Some(scan) = self.scan.as_mut() {
            scan.stop(why);
        }
        self.mode = Mode::Done;
    }

    fn jobs(&self) -> u64 {
        match &self.mode {
            Mode::Gzip(dec) => dec.get_ref().count,
            _ => self.scan.as_ref().map_or(0, |s| s.count),
        }
    }

    fn scanned(mut self) -> Scanned<'static> {
        if let Mode::Sniffing(head) = &mut self.mode {
            let head = std::mem::take(head);
            self.decide(&head);
            self.pass(&head);
        }
        if matches!(self.mode, Mode::Gzip(_)) {
            self.end_gzip(None);
        }
        let mut scan = self.scan.take().unwrap_or_else(|| Scan::new(None));
        scan.end();
        let left_out = scan.tally().map(|t| t.left_out()).unwrap_or_default();
        let busiest = scan.tally().and_then(|t| t.busiest());
        let local_times = scan.log.as_ref().is_some_and(|l| l.local_times());
        let format = scan.log.as_ref().map(|l| l.format());
        Scanned {
            lines_read: scan.lines_read,
            header_lines: scan.header_lines,
            blank_lines: scan.blank_lines,
            job_lines: scan.job_lines,
            header_text: scan.header_text,
            errors: scan.errors,
            errors_total: scan.errors_total,
            warnings: scan.warnings,
            fatal: scan.fatal,
            left_out,
            busiest,
            local_times,
            format,
            binary_line: scan.binary_line,
            stopped_at_line: scan.stopped_at_line,
            records: Cow::Owned(scan.records),
            count: scan.count,
        }
    }
}

/// Serialises a scan.
fn encode(s: &Scanned) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.records.len() + 4096);
    out.extend_from_slice(MAGIC);
    for v in [s.lines_read, s.header_lines, s.blank_lines, s.job_lines, s.errors_total, s.count] {
        put_varint(&mut out, v);
    }
    for v in [s.binary_line, s.stopped_at_line] {
        put_varint(&mut out, v.map_or(0, |l| l.saturating_add(1)));
    }
    put_str(&mut out, s.fatal.as_deref().unwrap_or(""));
    put_varint(&mut out, s.warnings.len() as u64);
    for w in &s.warnings {
        put_str(&mut out, w);
    }
    put_varint(&mut out, s.header_text.len() as u64);
    for (line, text) in &s.header_text {
        put_varint(&mut out, *line);
        put_str(&mut out, text);
    }
    put_varint(&mut out, s.busiest.map_or(0, |m| (m as u64).saturating_add(1)));
    put_varint(&mut out, s.local_times as u64);
    put_str(&mut out, s.format.unwrap_or(""));
    put_varint(&mut out, s.left_out.len() as u64);
    for (why, n, first) in &s.left_out {
        put_str(&mut out, why);
        put_varint(&mut out, *n);
        put_varint(&mut out, *first);
    }
    put_varint(&mut out, s.errors.len() as u64);
    for e in &s.errors {
        put_varint(&mut out, e.line);
        put_str(&mut out, e.field.unwrap_or(""));
        put_str(&mut out, &e.message);
    }
    put_varint(&mut out, s.records.len() as u64);
    out.extend_from_slice(&s.records);
    out
}

/// Reads a packed trace back; damaged bytes give a message, never a panic.
pub(super) fn decode(bytes: &[u8]) -> Result<Scanned<'_>, String> {
    let damaged = |at: usize| format!("the packed trace is damaged at byte {at}");
    let mut at = MAGIC.len();
    let at = &mut at;
    let mut nums = [0u64; 8];
    for n in nums.iter_mut() {
        *n = varint(bytes, at).ok_or_else(|| damaged(*at))?;
    }
    let [lines_read, header_lines, blank_lines, job_lines, errors_total, count, binary, stopped] = nums;
    let opt = |v: u64| v.checked_sub(1);
    let fatal = get_str(bytes, at).ok_or_else(|| damaged(*at))?;
    let mut warnings = Vec::new();
    for _ in 0..varint(bytes, at).ok_or_else(|| damaged(*at))? {
        warnings.push(get_str(bytes, at).ok_or_else(|| damaged(*at))?);
    }
    let mut header_text = Vec::new();
    for _ in 0..varint(bytes, at).ok_or_else(|| damaged(*at))? {
        let line = varint(bytes, at).ok_or_else(|| damaged(*at))?;
        header_text.push((line, get_str(bytes, at).ok_or_else(|| damaged(*at))?));
    }
    // Names are stored as text and read back as the static names they were.
    let known = |name: &str, among: &[&'static str]| among.iter().copied().find(|&n| n == name);
    let busiest = varint(bytes, at).ok_or_else(|| damaged(*at))?.checked_sub(1).map(|m| m.min(i64::MAX as u64) as i64);
    let local_times = varint(bytes, at).ok_or_else(|| damaged(*at))? != 0;
    let format = match get_str(bytes, at).ok_or_else(|| damaged(*at))?.as_str() {
        "" => None,
        f => Some(known(f, &super::accounting::FORMATS).ok_or_else(|| damaged(*at))?),
    };
    let mut left_out = Vec::new();
    for _ in 0..varint(bytes, at).ok_or_else(|| damaged(*at))? {
        let why = get_str(bytes, at).ok_or_else(|| damaged(*at))?;
        let why = known(&why, &super::accounting::LEFT_OUT).ok_or_else(|| damaged(*at))?;
        let n = varint(bytes, at).ok_or_else(|| damaged(*at))?;
        let first = varint(bytes, at).ok_or_else(|| damaged(*at))?;
        left_out.push((why, n, first));
    }
    let mut errors = Vec::new();
    for _ in 0..varint(bytes, at).ok_or_else(|| damaged(*at))? {
        let line = varint(bytes, at).ok_or_else(|| damaged(*at))?;
        let field = get_str(bytes, at).ok_or_else(|| damaged(*at))?;
        let field = match field.as_str() {
            "" => None,
            f => Some(
                known(f, &FIELD_NAMES)
                    .or_else(|| known(f, &super::sacct::COLUMNS))
                    .or_else(|| known(f, &super::pbs::KEYS))
                    .or_else(|| known(f, &super::sge::FIELDS))
                    .or_else(|| known(f, &super::jobcomp::KEYS))
                    .or_else(|| known(f, &super::lsf::FIELDS))
                    .ok_or_else(|| damaged(*at))?,
            ),
        };
        let message = get_str(bytes, at).ok_or_else(|| damaged(*at))?;
        errors.push(LineError { line, field, message });
    }
    let len = usize::try_from(varint(bytes, at).ok_or_else(|| damaged(*at))?).map_err(|_| damaged(*at))?;
    let records = bytes.get(*at..at.checked_add(len).ok_or_else(|| damaged(*at))?).ok_or_else(|| damaged(*at))?;
    // Every record takes at least 19 bytes (19 varints), so a count the bytes cannot hold is a
    // forgery, refused before anything is sized by it.
    if count > records.len() as u64 / 19 {
        return Err(damaged(*at));
    }
    Ok(Scanned {
        lines_read,
        header_lines,
        blank_lines,
        job_lines,
        header_text,
        errors,
        errors_total,
        warnings,
        fatal: if fatal.is_empty() { None } else { Some(fatal) },
        left_out,
        busiest,
        local_times,
        format,
        binary_line: opt(binary),
        stopped_at_line: opt(stopped),
        records: Cow::Borrowed(records),
        count,
    })
}

/// The line splitter and scanner behind a [`Loader`].
struct Scan<F: Formats> {
    /// The start of a line whose end has not arrived yet.
    carry: Vec<u8>,
    /// The current line passed [`MAX_LINE`]: the rest of it is skipped.
    overlong: bool,
    /// The last chunk ended in CR: a LF starting the next one belongs to it.
    pending_cr: bool,
    lines_read: u64,
    header_lines: u64,
    blank_lines: u64,
    job_lines: u64,
    header_text: Vec<(u64, String)>,
    errors: Vec<LineError>,
    errors_total: u64,
    warnings: Vec<String>,
    fatal: Option<String>,
    binary_line: Option<u64>,
    stopped_at_line: Option<u64>,
    records: Vec<u8>,
    count: u64,
    last_line: u64,
    last_id: i64,
    last_submit: i64,
    max_jobs: Option<u64>,
    /// No more lines are taken (a limit, the user or a fault).
    full: bool,
    /// The first line that is not blank or a comment has been looked at (it says the format).
    decided: bool,
    /// The input is an accounting log, not SWF: its reader.
    log: Option<F::Log>,
    /// The first line is neither SWF nor readable without the accounting readers, which this
    /// loader lacks: the input is left for a loader that has them.
    wants_readers: bool,
    /// '#' lines before the format is known: comments of an accounting log, or bad SWF lines.
    hashed: Vec<(u64, Vec<u8>)>,
    /// A first line that may head sacct's fixed-width output, with its number: the next line
    /// (dashes, or not) decides.
    maybe_fixed: Option<(u64, String)>,
    /// The columns of header-less sacct output, when the user named them (`fields=`).
    fields: Option<String>,
}

impl<F: Formats> Write for Scan<F> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.push(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<F: Formats> Scan<F> {
    fn new(max_jobs: Option<u64>) -> Scan<F> {
        Scan {
            carry: Vec::new(),
            overlong: false,
            pending_cr: false,
            lines_read: 0,
            header_lines: 0,
            blank_lines: 0,
            job_lines: 0,
            header_text: Vec::new(),
            errors: Vec::new(),
            errors_total: 0,
            warnings: Vec::new(),
            fatal: None,
            binary_line: None,
            stopped_at_line: None,
            records: Vec::new(),
            count: 0,
            last_line: 0,
            last_id: 0,
            last_submit: 0,
            max_jobs,
            full: false,
            decided: false,
            log: None,
            hashed: Vec::new(),
            maybe_fixed: None,
            fields: None,
            wants_readers: false,
        }
    }

    /// Splits bytes into lines ending in LF, CRLF or a lone CR.
    fn push(&mut self, data: &[u8]) {
        if self.full || data.is_empty() {
            // An empty chunk must not end a CR's wait for the LF that may follow it.
            return;
        }
        let mut start = 0;
        if self.pending_cr {
            self.pending_cr = false;
            if data.first() == Some(&b'\n') {
                start = 1;
            }
        }
        while let Some(p) = memchr::memchr2(b'\n', b'\r', &data[start..]) {
            let end = start + p;
            self.complete(&data[start..end]);
            let mut next = end + 1;
            if data[end] == b'\r' {
                match data.get(next) {
                    Some(b'\n') => next += 1,
                    None => self.pending_cr = true,
                    Some(_) => {}
                }
            }
            start = next;
            if self.full {
                return;
            }
        }
        self.keep(&data[start..]);
    }

    /// Holds the start of an unfinished line, up to [`MAX_LINE`] bytes.
    fn keep(&mut self, part: &[u8]) {
        if self.overlong || part.is_empty() {
            return;
        }
        if self.carry.len() + part.len() > MAX_LINE {
            self.overlong = true;
            self.carry.clear();
        } else {
            self.carry.extend_from_slice(part);
        }
    }

    /// Ends the current line with its last part.
    fn complete(&mut self, part: &[u8]) {
        if self.carry.is_empty() && !self.overlong {
            self.line(part);
            return;
        }
        self.keep(part);
        let carry = std::mem::take(&mut self.carry);
        self.line(&carry);
        self.carry = carry;
        self.carry.clear();
    }

    fn error(&mut self, e: LineError) {
        self.errors_total += 1;
        if self.errors.len() < MAX_REPORTED_ERRORS {
            self.errors.push(e);
        }
    }

    /// Reads one whole line (without its ending).
    fn line(&mut self, line: &[u8]) {
        self.lines_read += 1;
        let line_no = self.lines_read;
        if std::mem::take(&mut self.overlong) {
            self.job_lines += 1;
            self.binary_line.get_or_insert(line_no);
            let message = format!("the line is longer than {MAX_LINE} bytes: not an SWF line (binary data?)");
            self.error(LineError { line: line_no, field: None, message });
            return;
        }
        let trimmed = line.trim_ascii();
        if trimmed.is_empty() {
            self.blank_lines += 1;
            return;
        }
        if trimmed[0] == b';' {
            self.header_lines += 1;
            if self.header_text.len() < MAX_HEADER_LINES {
                self.header_text.push((line_no, String::from_utf8_lossy(&trimmed[1..]).into_owned()));
            } else if self.header_text.len() == MAX_HEADER_LINES && self.header_lines == MAX_HEADER_LINES as u64 + 1 {
                self.warnings.push(format!(
                    "more than {MAX_HEADER_LINES} header lines: the ones from line {line_no} on are counted, not kept"
                ));
            }
            return;
        }
        if let Some((first, header)) = self.maybe_fixed.take() {
            // The line under a possible fixed-width header: dashes make it sacct output.
            let fixed = std::str::from_utf8(line).ok().and_then(|d| F::fixed(&header, d));
            if let Some(sacct) = fixed {
                self.header_lines += 2;
                self.begin(sacct);
                return;
            }
            // Not sacct: the first line is read as what it is, an SWF line.
            self.swf_line(header.trim().as_bytes(), first);
        }
        // A '#' line (a note some tools add, Univa's header) says nothing of the format: it
        // waits, and the next line decides what it was.
        if !self.decided && trimmed[0] == b'#' && self.maybe_fixed.is_none() {
            if self.hashed.len() < MAX_HEADER_LINES {
                self.hashed.push((line_no, trimmed.to_vec()));
            } else {
                self.swf_line(trimmed, line_no);
            }
            return;
        }
        if !self.decided {
            self.decided = true;
            if matches!(trimmed[0], b'{' | b'[') {
                self.fatal = Some(JSON.to_string());
                self.full = true;
                return;
            }
            let text = std::str::from_utf8(trimmed).ok();
            // A header's white space at its ends may be a delimiter (a tab after its last column).
            let raw = std::str::from_utf8(line).ok();
            let first = match text {
                Some(t) if F::ANY => F::first(t, raw, self.fields.as_deref()),
                _ if !F::ANY && parse_job_line(trimmed, line_no).is_err() => {
                    // Not SWF: a loader with the accounting readers reads it from the start.
                    self.wants_readers = true;
                    self.fatal = Some("this is not SWF text, and this build reads no accounting logs".to_string());
                    self.full = true;
                    return;
                }
                _ => First::Swf,
            };
            self.settle_hashed(!matches!(first, First::Swf));
            match first {
                First::Swf => {}
                First::Log { reader, header, warning } => {
                    self.warnings.extend(warning);
                    self.begin(reader);
                    if header {
                        self.header_lines += 1;
                        return;
                    }
                    if self.full {
                        return;
                    }
                }
                First::Refused(why) => {
                    self.fatal = Some(why);
                    self.full = true;
                    return;
                }
                First::MaybeFixed => {
                    self.maybe_fixed = Some((line_no, String::from_utf8_lossy(line).into_owned()));
                    return;
                }
            }
        }
        if let Some(log) = self.log.as_mut() {
            if trimmed[0] == b'#' {
                // Notes and error logs some tools leave among an accounting log's records.
                self.header_lines += 1;
                return;
            }
            self.job_lines += 1;
            // Fixed-width columns are found by position: the line as it is.
            let text = if log.by_position() {
                line.trim_ascii_end()
            } else if log.untrimmed() {
                line
            } else {
                trimmed
            };
            let read = match std::str::from_utf8(text) {
                Ok(text) => log.line(text, line_no),
                Err(_) => Err(LineError { line: line_no, field: None, message: "not text (binary data?)".into() }),
            };
            match read {
                Ok(Some((first, f))) => {
                    self.record(first, &f);
                    // The other tasks of an array record, each a job of its own.
                    while !self.full {
                        let Some((first, f)) = self.log.as_mut().and_then(|l| l.more()) else { break };
                        self.record(first, &f);
                    }
                }
                Ok(None) => {}
                Err(e) => self.error(e),
            }
            return;
        }
        self.swf_line(trimmed, line_no);
    }

    /// Reads one SWF job line (trimmed).
    fn swf_line(&mut self, trimmed: &[u8], line_no: u64) {
        self.job_lines += 1;
        match parse_job_line(trimmed, line_no) {
            Ok(f) => self.record(line_no, &widen(&f)),
            Err(e) => {
                if trimmed.iter().any(|&b| b == 0 || (b < 0x20 && !b.is_ascii_whitespace()) || b == 0x7f) {
                    self.binary_line.get_or_insert(line_no);
                }
                self.error(e);
            }
        }
    }

    /// What the accounting log's reader counted, when the input is one.
    fn tally(&self) -> Option<&super::accounting::Tally> {
        self.log.as_ref().map(|l| l.tally())
    }

    /// The '#' lines read before the format was known: an accounting log's comments (header
    /// lines), or SWF lines, which they are not (each reported).
    fn settle_hashed(&mut self, accounting: bool) {
        for (line, text) in std::mem::take(&mut self.hashed) {
            if accounting {
                self.header_lines += 1;
            } else {
                self.swf_line(&text, line);
            }
        }
    }

    /// The input is an accounting log: from now on lines are read as its records.
    fn begin(&mut self, reader: F::Log) {
        if let Some(why) = reader.missing() {
            self.fatal = Some(why);
            self.full = true;
        }
        self.log = Some(reader);
    }

    /// Stores one job line, or stops at the job limit.
    fn record(&mut self, line: u64, f: &Fields) {
        if self.max_jobs.is_some_and(|m| self.count >= m) {
            self.job_lines -= 1;
            self.lines_read -= 1;
            self.stopped_at_line = Some(line);
            self.warnings.push(format!(
                "reading stopped at line {line}: at most {} jobs are kept here; the {} jobs before that line are kept (the schedlab command line reads the whole file)",
                self.max_jobs.unwrap_or(0),
                self.count
            ));
            self.full = true;
            return;
        }
        put_varint(&mut self.records, line - self.last_line);
        self.last_line = line;
        for (k, &i) in STORED.iter().enumerate() {
            let v = match k {
                0 => f[0].wrapping_sub(self.last_id),
                1 => f[1].wrapping_sub(self.last_submit),
                _ => f[i],
            };
            put_varint(&mut self.records, zigzag(v));
        }
        self.last_id = f[0];
        self.last_submit = f[1];
        self.count += 1;
    }

    /// The gzip stream broke: the partial line is dropped and the rest kept, with a warning.
    fn gzip_fault(&mut self, e: &str) {
        self.carry.clear();
        self.overlong = false;
        self.full = true;
        if self.lines_read == 0 {
            self.fatal = Some(format!("the gzip data is corrupt or truncated ({e}); nothing could be decoded"));
        } else {
            self.warnings.push(format!(
                "the gzip data is corrupt or truncated ({e}); kept the {} complete lines decoded before the fault",
                self.lines_read
            ));
        }
    }

    /// Reading stops before the end of the input, for `why`.
    fn stop(&mut self, why: &str) {
        if self.full {
            return;
        }
        self.carry.clear();
        self.overlong = false;
        self.full = true;
        let line = self.lines_read + 1;
        self.stopped_at_line = Some(line);
        self.warnings
            .push(format!("reading stopped at line {line}: {why}; the {} jobs before it are kept", self.count));
    }

    /// The input ended: a last line without a line ending is still a line.
    fn end(&mut self) {
        if !self.full && (!self.carry.is_empty() || self.overlong) {
            let carry = std::mem::take(&mut self.carry);
            self.line(&carry);
        }
        if let Some((first, header)) = self.maybe_fixed.take() {
            // A one-line file: its line was not a header after all.
            self.swf_line(header.trim().as_bytes(), first);
        }
        if !self.decided {
            self.settle_hashed(false);
        }
        if let Some((first, f)) = self.log.as_mut().and_then(|l| l.flush()) {
            if !self.full {
                self.record(first, &f);
            }
        }
        let finished = self.log.as_ref().map(|l| l.finish());
        if let Some((header, warnings)) = finished {
            // What an accounting log does not say in a header, the scan found out.
            for h in header {
                self.header_text.push((0, format!(" {h}")));
            }
            self.warnings.extend(warnings);
        }
    }
}
