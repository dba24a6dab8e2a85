//! Column buffers in Arrow's columnar layout, filled in Rust and handed to pyarrow without a
//! copy (`pgn/table.rs`): offsets and values as `Vec`s, validity as Arrow's bitmap (bit `i`
//! of byte `i / 8`, set for a value that is there).

/// Validity bits, packed as Arrow keeps them, with the count of nulls (none: no bitmap).
#[derive(Default)]
pub struct Validity {
    bits: Vec<u8>,
    len: usize,
    nulls: usize,
}

impl Validity {
    pub fn with_capacity(n: usize) -> Validity {
        Validity {
            bits: Vec::with_capacity(n.div_ceil(8)),
            ..Validity::default()
        }
    }

    pub fn push(&mut self, valid: bool) {
        if self.len.is_multiple_of(8) {
            self.bits.push(0);
        }
        if valid {
            *self.bits.last_mut().expect("a byte per 8 bits") |= 1 << (self.len % 8);
        } else {
            self.nulls += 1;
        }
        self.len += 1;
    }

    /// `n` bits of the same value.
    pub fn push_n(&mut self, valid: bool, n: usize) {
        // Bit by bit up to a byte boundary, then whole bytes.
        let mut left = n;
        while left > 0 && !self.len.is_multiple_of(8) {
            self.push(valid);
            left -= 1;
        }
        let bytes = left / 8;
        self.bits
            .resize(self.bits.len() + bytes, if valid { 0xFF } else { 0 });
        self.len += 8 * bytes;
        if !valid {
            self.nulls += 8 * bytes;
        }
        for _ in 0..left % 8 {
            self.push(valid);
        }
    }

    /// `other`'s bits after these.
    pub fn append(&mut self, other: &Validity) {
        let shift = self.len % 8;
        if shift == 0 {
            self.bits.extend_from_slice(&other.bits);
        } else {
            // Bits past `len` are always clear, so each byte of `other` splits across two.
            for &byte in &other.bits {
                *self.bits.last_mut().expect("a partial byte") |= byte << shift;
                self.bits.push(byte >> (8 - shift));
            }
        }
        self.len += other.len;
        self.nulls += other.nulls;
        self.bits.truncate(self.len.div_ceil(8));
    }

    pub fn clear(&mut self) {
        self.bits.clear();
        self.len = 0;
        self.nulls = 0;
    }

    /// Arrow's validity buffer, or `None` when every value is there.
    pub fn into_bitmap(self) -> Option<Vec<u8>> {
        (self.nulls > 0).then_some(self.bits)
    }
}

/// A column of strings (nulls allowed).
pub struct StrCol {
    /// Where each string starts, then where the last one ends: never empty.
    pub offsets: Vec<i32>,
    pub data: Vec<u8>,
    pub valid: Validity,
}

impl Default for StrCol {
    fn default() -> StrCol {
        StrCol::new()
    }
}

impl StrCol {
    pub fn new() -> StrCol {
        StrCol {
            offsets: vec![0],
            data: Vec::new(),
            valid: Validity::default(),
        }
    }

    /// Empty, with room for `rows` strings of `bytes` bytes in all.
    pub fn with_capacity(rows: usize, bytes: usize) -> StrCol {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        StrCol {
            offsets,
            data: Vec::with_capacity(bytes),
            valid: Validity::with_capacity(rows),
        }
    }

    pub fn push(&mut self, value: Option<&[u8]>) {
        if let Some(v) = value {
            self.data.extend_from_slice(v);
        }
        self.offsets.push(self.data.len() as i32);
        self.valid.push(value.is_some());
    }

    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn push_nulls(&mut self, n: usize) {
        let end = self.data.len() as i32;
        self.offsets.resize(self.offsets.len() + n, end);
        self.valid.push_n(false, n);
    }

    /// Appends `other`'s values after this column's.
    pub fn append(&mut self, other: &StrCol) {
        let base = self.data.len() as i32;
        self.offsets
            .extend(other.offsets[1..].iter().map(|o| o + base));
        self.data.extend_from_slice(&other.data);
        self.valid.append(&other.valid);
    }

    /// Empty again, keeping the buffers.
    pub fn clear(&mut self) {
        self.offsets.truncate(1);
        self.data.clear();
        self.valid.clear();
    }
}

/// A column of lists of `T` (nulls allowed among the lists and among the values); with its
/// offsets left alone, also a flat column of `T` with nulls.
pub struct ListCol<T> {
    /// Where each list starts, then where the last one ends: never empty.
    pub offsets: Vec<i32>,
    pub values: Vec<T>,
    /// Which values are there.
    pub valid: Validity,
    /// Which lists are there (a null list holds no values, so it costs none of `values`).
    pub lists: Validity,
}

impl<T: Copy + Default> Default for ListCol<T> {
    fn default() -> Self {
        ListCol::new()
    }
}

impl<T: Copy + Default> ListCol<T> {
    pub fn new() -> Self {
        ListCol {
            offsets: vec![0],
            values: Vec::new(),
            valid: Validity::default(),
            lists: Validity::default(),
        }
    }

    /// Empty, with room for `lists` lists of `values` values in all.
    pub fn with_capacity(lists: usize, values: usize) -> Self {
        let mut offsets = Vec::with_capacity(lists + 1);
        offsets.push(0);
        ListCol {
            offsets,
            values: Vec::with_capacity(values),
            valid: Validity::with_capacity(values),
            lists: Validity::with_capacity(lists),
        }
    }

    pub fn push_list(&mut self, items: impl Iterator<Item = Option<T>>) {
        for item in items {
            self.push_value(item);
        }
        self.end_list();
    }

    /// Ends the list whose values were pushed since the last one ended.
    pub fn end_list(&mut self) {
        self.offsets.push(self.values.len() as i32);
        self.lists.push(true);
    }

    /// A null list (none of its values may have been pushed).
    pub fn push_null_list(&mut self) {
        self.offsets.push(self.values.len() as i32);
        self.lists.push(false);
    }

    /// One value of a flat column (a positions table's), nulls allowed.
    pub fn push_value(&mut self, item: Option<T>) {
        self.values.push(item.unwrap_or_default());
        self.valid.push(item.is_some());
    }

    pub fn append(&mut self, other: &ListCol<T>) {
        let base = self.values.len() as i32;
        self.offsets
            .extend(other.offsets[1..].iter().map(|o| o + base));
        self.values.extend_from_slice(&other.values);
        self.valid.append(&other.valid);
        self.lists.append(&other.lists);
    }

    /// Empty again, keeping the buffers.
    pub fn clear(&mut self) {
        self.offsets.truncate(1);
        self.values.clear();
        self.valid.clear();
        self.lists.clear();
    }
}
