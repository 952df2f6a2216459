//! The C interface of `cpp/harness.cpp` (Google's C++ on the workloads). The safe wrappers live in
//! each workload's `cpp` module; `*_loop` functions run an operation `iters` times inside C++.

use std::ffi::c_char;

/// A C++ `FlatBufferBuilder` for flatbench.
#[repr(C)]
pub(crate) struct FlatbenchEncoder {
    _private: [u8; 0],
}

/// A C++ `flatbuffers::Parser` holding bench.fbs, with the text of its last print.
#[repr(C)]
pub(crate) struct Json {
    _private: [u8; 0],
}

/// A C++ `std::string` owned by the caller.
#[repr(C)]
pub(crate) struct CppString {
    _private: [u8; 0],
}

/// A C++ `FlatBufferBuilder` for the ObjectBox entity.
#[repr(C)]
pub(crate) struct ObjectboxWriter {
    _private: [u8; 0],
}

/// Every field of an ObjectBox entity as C++ read it; `data` is null when absent.
#[repr(C)]
pub(crate) struct Entity {
    pub(crate) id: i64,
    pub(crate) value: f64,
    pub(crate) name: *const c_char,
    pub(crate) name_len: usize,
    pub(crate) data: *const u8,
    pub(crate) data_len: usize,
}

unsafe extern "C" {
    pub(crate) fn ffb_flatbench_encoder_new() -> *mut FlatbenchEncoder;
    pub(crate) fn ffb_flatbench_encoder_free(encoder: *mut FlatbenchEncoder);
    pub(crate) fn ffb_flatbench_encode(
        encoder: *mut FlatbenchEncoder,
        data: *mut *const u8,
    ) -> usize;
    pub(crate) fn ffb_flatbench_encode_loop(encoder: *mut FlatbenchEncoder, iters: u64);
    pub(crate) fn ffb_flatbench_traverse(buf: *const u8) -> i64;
    pub(crate) fn ffb_flatbench_traverse_loop(buf: *const u8, iters: u64);
    pub(crate) fn ffb_flatbench_verify(buf: *const u8, len: usize) -> bool;
    pub(crate) fn ffb_monster_verify(buf: *const u8, len: usize) -> bool;
    pub(crate) fn ffb_flexbuffer_verify(buf: *const u8, len: usize) -> bool;
    pub(crate) fn ffb_flatbench_verify_loop(buf: *const u8, len: usize, iters: u64);
    pub(crate) fn ffb_flatbench_verify_traverse(buf: *const u8, len: usize, sum: *mut i64) -> bool;
    pub(crate) fn ffb_flatbench_verify_traverse_loop(buf: *const u8, len: usize, iters: u64);

    pub(crate) fn ffb_json_new(schema: *const c_char, error: *mut *mut CppString) -> *mut Json;
    pub(crate) fn ffb_json_free(json: *mut Json);
    pub(crate) fn ffb_string_data(s: *const CppString) -> *const c_char;
    pub(crate) fn ffb_string_len(s: *const CppString) -> usize;
    pub(crate) fn ffb_string_free(s: *mut CppString);
    pub(crate) fn ffb_json_print(
        json: *mut Json,
        buf: *const u8,
        text: *mut *const c_char,
        len: *mut usize,
    ) -> bool;
    pub(crate) fn ffb_json_print_loop(json: *mut Json, buf: *const u8, iters: u64);
    pub(crate) fn ffb_json_parse(
        json: *mut Json,
        text: *const c_char,
        buf: *mut *const u8,
        len: *mut usize,
    ) -> bool;
    pub(crate) fn ffb_json_error(json: *const Json) -> *const c_char;
    pub(crate) fn ffb_json_parse_loop(json: *mut Json, text: *const c_char, iters: u64);

    pub(crate) fn ffb_objectbox_writer_new() -> *mut ObjectboxWriter;
    pub(crate) fn ffb_objectbox_writer_free(writer: *mut ObjectboxWriter);
    pub(crate) fn ffb_objectbox_write(
        writer: *mut ObjectboxWriter,
        with_bytes: bool,
        data: *mut *const u8,
    ) -> usize;
    pub(crate) fn ffb_objectbox_write_loop(
        writer: *mut ObjectboxWriter,
        with_bytes: bool,
        iters: u64,
    );
    pub(crate) fn ffb_objectbox_verify(buf: *const u8, len: usize) -> bool;
    pub(crate) fn ffb_objectbox_read(buf: *const u8, out: *mut Entity);
    pub(crate) fn ffb_objectbox_read_loop(buf: *const u8, iters: u64);
}
