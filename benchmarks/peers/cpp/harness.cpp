// Google's C++ FlatBuffers on the workloads of WORKLOADS.md, behind a C interface for the Rust
// benchmarks in this package.
//
// Every operation comes twice: once as a single call (for the tests, which check its result) and
// once as a `*_loop` that runs it `iters` times inside C++. The benchmarks time the loops, so one FFI
// call is spread over many iterations and what is measured is the C++ work. `Opaque` and `Clobber`
// play the part of Rust's `black_box`: they stop the compiler from hoisting the work out of the loop
// or dropping it.
//
// The flatbench encoder and reader follow Google's benchmarks/cpp/flatbuffers/fb_bench.cpp.

#include <cstddef>
#include <cstdint>
#include <string>

#include "bench_generated.h"
#include "flatbuffers/flatbuffers.h"
#include "flatbuffers/idl.h"
#include "monster_test_generated.h"
#include "objectbox_generated.h"

namespace {

// As Google Benchmark's DoNotOptimize: the value may be read and changed, memory may be touched.
template <class T>
inline void Opaque(T &value) {
#if defined(__clang__)
  asm volatile("" : "+r,m"(value) : : "memory");
#else
  asm volatile("" : "+m,r"(value) : : "memory");
#endif
}

inline void Clobber() { asm volatile("" : : : "memory"); }

using namespace benchmarks_flatbuffers;

void EncodeFlatbench(flatbuffers::FlatBufferBuilder &fbb) {
  fbb.Clear();
  const int kVectorLength = 3;
  flatbuffers::Offset<FooBar> vec[kVectorLength];
  for (int i = 0; i < kVectorLength; ++i) {
    Foo foo(0xABADCAFEABADCAFE + i, 10000 + i, '@' + i, 1000000 + i);
    Bar bar(foo, 123456 + i, 3.14159f + i, 10000 + i);
    auto name = fbb.CreateString("Hello, World!");
    vec[i] = CreateFooBar(fbb, &bar, name, 3.1415432432445543543 + i, '!' + i);
  }
  auto location = fbb.CreateString("http://google.com/flatbuffers/");
  auto list = fbb.CreateVector(vec, kVectorLength);
  fbb.Finish(CreateFooBarContainer(fbb, list, true, Enum_Bananas, location));
}

// The sum of fb_bench.cpp's Use(), in wrapping 64-bit arithmetic.
int64_t TraverseFlatbench(const uint8_t *buf) {
  uint64_t sum = 0;
  auto add = [&sum](int64_t value) { sum += static_cast<uint64_t>(value); };
  auto container = GetFooBarContainer(buf);
  add(container->initialized());
  add(container->location()->size());
  add(container->fruit());
  auto list = container->list();
  for (flatbuffers::uoffset_t i = 0; i < list->size(); i++) {
    auto foobar = list->Get(i);
    add(foobar->name()->size());
    add(foobar->postfix());
    add(static_cast<int64_t>(foobar->rating()));
    auto bar = foobar->sibling();
    add(static_cast<int64_t>(bar->ratio()));
    add(bar->size());
    add(bar->time());
    auto &foo = bar->parent();
    add(foo.count());
    add(static_cast<int64_t>(foo.id()));
    add(foo.length());
    add(foo.prefix());
  }
  return static_cast<int64_t>(sum);
}

bool VerifyFlatbench(const uint8_t *buf, size_t len) {
  flatbuffers::Verifier verifier(buf, len);
  return VerifyFooBarContainerBuffer(verifier);
}

void WriteEntity(flatbuffers::FlatBufferBuilder &fbb, bool with_bytes) {
  static const uint8_t kBytes[] = {1, 2, 3, 4, 5, 6};
  fbb.Clear();
  flatbuffers::Offset<flatbuffers::Vector<uint8_t>> data;
  if (with_bytes) data = fbb.CreateVector(kBytes, sizeof kBytes);
  auto name = fbb.CreateString("Foo");
  fbb.Finish(peers::objectbox::CreateEntity(fbb, 1, 4.2, name, data));
}

}  // namespace

extern "C" {

struct ffb_flatbench_encoder {
  flatbuffers::FlatBufferBuilder fbb;
};

ffb_flatbench_encoder *ffb_flatbench_encoder_new() { return new ffb_flatbench_encoder(); }

void ffb_flatbench_encoder_free(ffb_flatbench_encoder *encoder) { delete encoder; }

size_t ffb_flatbench_encode(ffb_flatbench_encoder *encoder, const uint8_t **data) {
  EncodeFlatbench(encoder->fbb);
  *data = encoder->fbb.GetBufferPointer();
  return encoder->fbb.GetSize();
}

void ffb_flatbench_encode_loop(ffb_flatbench_encoder *encoder, uint64_t iters) {
  for (uint64_t i = 0; i < iters; i++) {
    EncodeFlatbench(encoder->fbb);
    Clobber();
  }
}

int64_t ffb_flatbench_traverse(const uint8_t *buf) { return TraverseFlatbench(buf); }

void ffb_flatbench_traverse_loop(const uint8_t *buf, uint64_t iters) {
  for (uint64_t i = 0; i < iters; i++) {
    const uint8_t *p = buf;
    Opaque(p);
    int64_t sum = TraverseFlatbench(p);
    Opaque(sum);
  }
}

bool ffb_flatbench_verify(const uint8_t *buf, size_t len) { return VerifyFlatbench(buf, len); }

// The reference verifier on a monster_test.fbs `Monster` (the file identifier is not checked). It
// also verifies the FlexBuffer in the `flex` field, which flatforge's verifier takes as bytes.
bool ffb_monster_verify(const uint8_t *buf, size_t len) {
  flatbuffers::Verifier verifier(buf, len);
  return verifier.VerifyBuffer<MyGame::Example::Monster>(nullptr);
}

// The reference FlexBuffer verifier.
bool ffb_flexbuffer_verify(const uint8_t *buf, size_t len) {
  return flexbuffers::VerifyBuffer(buf, len, nullptr);
}

void ffb_flatbench_verify_loop(const uint8_t *buf, size_t len, uint64_t iters) {
  for (uint64_t i = 0; i < iters; i++) {
    const uint8_t *p = buf;
    Opaque(p);
    bool ok = VerifyFlatbench(p, len);
    Opaque(ok);
  }
}

bool ffb_flatbench_verify_traverse(const uint8_t *buf, size_t len, int64_t *sum) {
  if (!VerifyFlatbench(buf, len)) return false;
  *sum = TraverseFlatbench(buf);
  return true;
}

void ffb_flatbench_verify_traverse_loop(const uint8_t *buf, size_t len, uint64_t iters) {
  for (uint64_t i = 0; i < iters; i++) {
    const uint8_t *p = buf;
    Opaque(p);
    int64_t sum = VerifyFlatbench(p, len) ? TraverseFlatbench(p) : 0;
    Opaque(sum);
  }
}

// flatc's JSON printer and parser (idl_gen_text.cpp and idl_parser.cpp, from libflatbuffers.a).
struct ffb_json {
  flatbuffers::Parser parser;
  std::string text;
};

// Parses the schema; strict JSON with flatc's default 2-space indent, like `flatc --strict-json`.
// Returns null with `*error` set (owned by the caller, freed with ffb_string_free) on failure.
ffb_json *ffb_json_new(const char *schema, std::string **error) {
  auto json = new ffb_json();
  json->parser.opts.strict_json = true;
  if (!json->parser.Parse(schema)) {
    *error = new std::string(json->parser.error_);
    delete json;
    return nullptr;
  }
  return json;
}

void ffb_json_free(ffb_json *json) { delete json; }

const char *ffb_string_data(const std::string *s) { return s->data(); }

size_t ffb_string_len(const std::string *s) { return s->size(); }

void ffb_string_free(std::string *s) { delete s; }

// Prints a verified buffer; the text stays valid until the next call on `json`.
bool ffb_json_print(ffb_json *json, const uint8_t *buf, const char **text, size_t *len) {
  json->text.clear();
  if (flatbuffers::GenText(json->parser, buf, &json->text) != nullptr) return false;
  *text = json->text.data();
  *len = json->text.size();
  return true;
}

void ffb_json_print_loop(ffb_json *json, const uint8_t *buf, uint64_t iters) {
  for (uint64_t i = 0; i < iters; i++) {
    const uint8_t *p = buf;
    Opaque(p);
    json->text.clear();
    const char *error = flatbuffers::GenText(json->parser, p, &json->text);
    Opaque(error);
    Clobber();
  }
}

// Parses NUL-terminated JSON text into a buffer that stays valid until the next call on `json`.
bool ffb_json_parse(ffb_json *json, const char *text, const uint8_t **buf, size_t *len) {
  if (!json->parser.ParseJson(text)) return false;
  *buf = json->parser.builder_.GetBufferPointer();
  *len = json->parser.builder_.GetSize();
  return true;
}

const char *ffb_json_error(const ffb_json *json) { return json->parser.error_.c_str(); }

void ffb_json_parse_loop(ffb_json *json, const char *text, uint64_t iters) {
  for (uint64_t i = 0; i < iters; i++) {
    const char *p = text;
    Opaque(p);
    bool ok = json->parser.ParseJson(p);
    Opaque(ok);
    Clobber();
  }
}

struct ffb_objectbox_writer {
  flatbuffers::FlatBufferBuilder fbb;
};

ffb_objectbox_writer *ffb_objectbox_writer_new() { return new ffb_objectbox_writer(); }

void ffb_objectbox_writer_free(ffb_objectbox_writer *writer) { delete writer; }

size_t ffb_objectbox_write(ffb_objectbox_writer *writer, bool with_bytes, const uint8_t **data) {
  WriteEntity(writer->fbb, with_bytes);
  *data = writer->fbb.GetBufferPointer();
  return writer->fbb.GetSize();
}

void ffb_objectbox_write_loop(ffb_objectbox_writer *writer, bool with_bytes, uint64_t iters) {
  for (uint64_t i = 0; i < iters; i++) {
    WriteEntity(writer->fbb, with_bytes);
    Clobber();
  }
}

// Every field of an Entity; `data` is null when the buffer has no bytes.
struct ffb_entity {
  int64_t id;
  double value;
  const char *name;
  size_t name_len;
  const uint8_t *data;
  size_t data_len;
};

bool ffb_objectbox_verify(const uint8_t *buf, size_t len) {
  flatbuffers::Verifier verifier(buf, len);
  return peers::objectbox::VerifyEntityBuffer(verifier);
}

void ffb_objectbox_read(const uint8_t *buf, ffb_entity *out) {
  auto entity = peers::objectbox::GetEntity(buf);
  out->id = entity->id();
  out->value = entity->value();
  auto name = entity->name();
  out->name = name ? name->c_str() : nullptr;
  out->name_len = name ? name->size() : 0;
  auto data = entity->data();
  out->data = data ? data->data() : nullptr;
  out->data_len = data ? data->size() : 0;
}

void ffb_objectbox_read_loop(const uint8_t *buf, uint64_t iters) {
  ffb_entity entity;
  for (uint64_t i = 0; i < iters; i++) {
    const uint8_t *p = buf;
    Opaque(p);
    ffb_objectbox_read(p, &entity);
    Opaque(entity.id);
    Opaque(entity.value);
    Opaque(entity.name);
    Opaque(entity.name_len);
    Opaque(entity.data);
    Opaque(entity.data_len);
  }
}

}  // extern "C"
