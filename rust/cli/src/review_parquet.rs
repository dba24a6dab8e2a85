//! The Parquet tables of `shatranj review --table FILE.parquet`, made from the CSV the run
//! writes (its spool, see `review_table::paths`).
//!
//! Why a spool: a Parquet file ends in a footer that indexes all of it, so it can be neither
//! appended game by game nor truncated back to a checkpoint, both of which the CSV allows.
//! The run writes and checkpoints the CSV exactly as for `--table FILE.csv`, and whenever it
//! ends (finished, interrupted by Ctrl-C, stopped by a failing game) converts the whole CSV
//! into Parquet, so the finished games are readable; a resumed run converts again at its
//! end. The conversion streams: it holds one row group (`ROWS_PER_GROUP` rows) at a time.
//! It writes a temporary file beside the target and renames it, so a reader never sees half
//! a file.
//!
//! The file is written with the `parquet` crate's column writers (no arrow): one OPTIONAL
//! column per table column, INT64, INT32, DOUBLE or `BYTE_ARRAY` with the STRING logical type
//! (pyarrow reads them as int64, int32, float64 and string, the types of Python's tables),
//! zstd-compressed pages. The same CSV gives the same bytes.

use crate::review_table::{CsvRecords, Kind};
use parquet::basic::{Compression, LogicalType, Repetition, Type as Physical, ZstdLevel};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;
use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::path::Path;
use std::sync::Arc;

/// Rows per row group: a bound on the memory the conversion holds.
pub const ROWS_PER_GROUP: usize = 1 << 16;

/// One column's values of the current row group, nulls left out, and its definition levels
/// (1: a value, 0: null).
enum Values {
    Int64(Vec<i64>),
    Int32(Vec<i32>),
    Double(Vec<f64>),
    Utf8(Vec<ByteArray>),
}

struct Column {
    name: &'static str,
    values: Values,
    defined: Vec<i16>,
}

impl Column {
    fn new(name: &'static str, kind: Kind) -> Column {
        let values = match kind {
            Kind::Int64 => Values::Int64(Vec::new()),
            Kind::Int32 => Values::Int32(Vec::new()),
            Kind::Double => Values::Double(Vec::new()),
            Kind::Utf8 => Values::Utf8(Vec::new()),
        };
        Column {
            name,
            values,
            defined: Vec::new(),
        }
    }

    /// Adds one CSV field: empty is null.
    fn push(&mut self, text: &str) -> Result<(), String> {
        if text.is_empty() {
            self.defined.push(0);
            return Ok(());
        }
        let bad = |kind: &str| format!("column {}: {text:?} is not {kind}", self.name);
        match &mut self.values {
            Values::Int64(v) => v.push(text.parse().map_err(|_| bad("an int64"))?),
            Values::Int32(v) => v.push(text.parse().map_err(|_| bad("an int32"))?),
            Values::Double(v) => v.push(text.parse().map_err(|_| bad("a number"))?),
            Values::Utf8(v) => v.push(ByteArray::from(text)),
        }
        self.defined.push(1);
        Ok(())
    }

    fn clear(&mut self) {
        self.defined.clear();
        match &mut self.values {
            Values::Int64(v) => v.clear(),
            Values::Int32(v) => v.clear(),
            Values::Double(v) => v.clear(),
            Values::Utf8(v) => v.clear(),
        }
    }
}

fn schema(columns: &[(&'static str, Kind)]) -> parquet::errors::Result<Type> {
    let mut fields = Vec::with_capacity(columns.len());
    for &(name, kind) in columns {
        let physical = match kind {
            Kind::Int64 => Physical::INT64,
            Kind::Int32 => Physical::INT32,
            Kind::Double => Physical::DOUBLE,
            Kind::Utf8 => Physical::BYTE_ARRAY,
        };
        let mut field =
            Type::primitive_type_builder(name, physical).with_repetition(Repetition::OPTIONAL);
        if kind == Kind::Utf8 {
            field = field.with_logical_type(Some(LogicalType::String));
        }
        fields.push(Arc::new(field.build()?));
    }
    Type::group_type_builder("schema")
        .with_fields(fields)
        .build()
}

/// Writes the table in `csv` (a header naming `columns`, then rows) to `out` as Parquet;
/// returns the number of rows.
pub fn convert(csv: &Path, columns: &[(&'static str, Kind)], out: &Path) -> Result<u64, String> {
    let tmp = out.with_file_name(format!(
        "{}.tmp",
        out.file_name().and_then(|n| n.to_str()).unwrap_or("table")
    ));
    let result = write(csv, columns, &tmp);
    match result {
        Ok(rows) => {
            std::fs::rename(&tmp, out).map_err(|e| {
                format!("cannot rename {} to {}: {e}", tmp.display(), out.display())
            })?;
            Ok(rows)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(format!(
                "cannot write {} from {}: {e}",
                out.display(),
                csv.display()
            ))
        }
    }
}

fn write(csv: &Path, columns: &[(&'static str, Kind)], out: &Path) -> Result<u64, String> {
    let input = File::open(csv).map_err(|e| e.to_string())?;
    let mut records = CsvRecords::new(BufReader::with_capacity(1 << 16, input));
    let mut fields = Vec::new();
    let names: Vec<&str> = columns.iter().map(|c| c.0).collect();
    if !records
        .next_record(&mut fields)
        .map_err(|e| e.to_string())?
        || fields != names
    {
        return Err("its header is not this table's".to_owned());
    }
    let file = File::create(out).map_err(|e| e.to_string())?;
    let properties = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .set_max_row_group_size(ROWS_PER_GROUP)
        .build();
    let schema = schema(columns).map_err(|e| e.to_string())?;
    let mut writer =
        SerializedFileWriter::new(BufWriter::new(file), Arc::new(schema), Arc::new(properties))
            .map_err(|e| e.to_string())?;
    let mut buffers: Vec<Column> = columns.iter().map(|&(n, k)| Column::new(n, k)).collect();
    let (mut rows, mut in_group) = (0u64, 0usize);
    loop {
        let more = records
            .next_record(&mut fields)
            .map_err(|e| e.to_string())?;
        if more {
            if fields.len() != columns.len() {
                return Err(format!(
                    "row {}: {} fields, not {}",
                    rows + 1,
                    fields.len(),
                    columns.len()
                ));
            }
            for (column, text) in buffers.iter_mut().zip(&fields) {
                column
                    .push(text)
                    .map_err(|e| format!("row {}, {e}", rows + 1))?;
            }
            rows += 1;
            in_group += 1;
        }
        if in_group == ROWS_PER_GROUP || (!more && in_group > 0) {
            write_group(&mut writer, &mut buffers).map_err(|e| e.to_string())?;
            in_group = 0;
        }
        if !more {
            break;
        }
    }
    writer
        .into_inner()
        .map_err(|e| e.to_string())?
        .into_inner()
        .map_err(|e| e.to_string())?
        .sync_all()
        .map_err(|e| e.to_string())?;
    Ok(rows)
}

fn write_group<W: std::io::Write + Send>(
    writer: &mut SerializedFileWriter<W>,
    buffers: &mut [Column],
) -> parquet::errors::Result<()> {
    let mut group = writer.next_row_group()?;
    for column in buffers.iter_mut() {
        let Some(mut out) = group.next_column()? else {
            unreachable!("one column writer per schema column")
        };
        let defined = Some(&column.defined[..]);
        match &column.values {
            Values::Int64(v) => out.typed::<Int64Type>().write_batch(v, defined, None)?,
            Values::Int32(v) => out.typed::<Int32Type>().write_batch(v, defined, None)?,
            Values::Double(v) => out.typed::<DoubleType>().write_batch(v, defined, None)?,
            Values::Utf8(v) => out.typed::<ByteArrayType>().write_batch(v, defined, None)?,
        };
        out.close()?;
        column.clear();
    }
    group.close()?;
    Ok(())
}
