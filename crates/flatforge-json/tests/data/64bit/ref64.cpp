// Reference buffers for FlatBuffers' tests/64bit/test_64bit.fbs, built with the C++ library of
// flatc 25.12.19 (FlatBufferBuilder64: 64-bit objects are written first, so they end up at the end
// of the buffer), and flatc's generated verifier as an oracle. To rebuild, with the library's
// headers in INCLUDE:
//   flatc --cpp -o . test_64bit.fbs
//   g++ -std=c++17 -I INCLUDE -I . ref64.cpp -o ref64
//   ref64 build DIR      writes DIR/builder64_{full,empty,offset64}.bin
//   ref64 verify FILE..  prints "ok" or "fail" per file (VerifyRootTableBuffer)
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>
#include "test_64bit_generated.h"

static void save(const std::string &path, const uint8_t *p, size_t n) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char *>(p), n);
}

static void inner(flatbuffers::FlatBufferBuilder64 &b) {
  auto big = b.CreateVector64(std::vector<uint8_t>{9, 8, 7});
  auto s = b.CreateString("inner");
  RootTableBuilder r(b);
  r.add_big_vector(big);
  r.add_near_string(s);
  r.add_a(-7);
  b.Finish(r.Finish());
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  std::string mode = argv[1];
  if (mode == "build" && argc == 3) {
    std::string dir = argv[2];
    flatbuffers::FlatBufferBuilder64 nb;
    inner(nb);
    std::vector<uint8_t> nested(nb.GetBufferPointer(), nb.GetBufferPointer() + nb.GetSize());

    flatbuffers::FlatBufferBuilder64 b;
    // 64-bit objects first.
    b.ForceVectorAlignment64(5, 1, 32);
    auto forced = b.CreateVector64(std::vector<uint8_t>{1, 2, 3, 4, 5});
    std::vector<LeafStruct> leaves{LeafStruct(1, 1.5), LeafStruct(-2, -0.25), LeafStruct(3, 1e-20)};
    auto big_structs = b.CreateVectorOfStructs<LeafStruct, flatbuffers::Offset64, flatbuffers::Vector64>(leaves.data(), leaves.size());
    auto far_structs = b.CreateVectorOfStructs<LeafStruct, flatbuffers::Offset64>(leaves.data(), 2);
    b.ForceVectorAlignment64(nested.size(), 1, 8);
    auto nested_root = b.CreateVector64(nested);
    auto big = b.CreateVector64(std::vector<uint8_t>{5, 6, 7});
    auto bools = b.CreateVector64(std::vector<uint8_t>{1, 0, 1});
    auto far_string = b.CreateString<flatbuffers::Offset64>("far \xc3\xa9 string");
    auto far_vector = b.CreateVector<uint8_t, flatbuffers::Offset64>(std::vector<uint8_t>{10, 20, 30, 40, 50}.data(), 5);
    auto w1v = b.CreateVector<int8_t, flatbuffers::Offset64>(std::vector<int8_t>{-1, 2}.data(), 2);
    // Then 32-bit ones.
    auto near = b.CreateString("near");
    auto w1 = CreateWrapperTable(b, w1v);
    auto w2 = CreateWrapperTable(b);
    std::vector<flatbuffers::Offset<WrapperTable>> ws{w1, w2};
    auto many = b.CreateVector(ws);
    RootTableBuilder r(b);
    r.add_far_vector(far_vector);
    r.add_a(1234);
    r.add_far_string(far_string);
    r.add_big_bool_vector(bools);
    r.add_big_vector(big);
    r.add_near_string(near);
    r.add_nested_root(nested_root);
    r.add_far_struct_vector(far_structs);
    r.add_big_struct_vector(big_structs);
    r.add_many_vectors(many);
    r.add_forced_aligned_vector(forced);
    b.Finish(r.Finish());
    save(dir + "/builder64_full.bin", b.GetBufferPointer(), b.GetSize());

    // Empty vectors and strings behind 64-bit offsets.
    flatbuffers::FlatBufferBuilder64 e;
    auto ebig = e.CreateVector64(std::vector<uint8_t>{});
    auto estructs = e.CreateVectorOfStructs<LeafStruct, flatbuffers::Offset64, flatbuffers::Vector64>(leaves.data(), 0);
    auto estr = e.CreateString<flatbuffers::Offset64>("");
    auto efar = e.CreateVector<uint8_t, flatbuffers::Offset64>(nested.data(), 0);
    RootTableBuilder er(e);
    er.add_big_vector(ebig);
    er.add_big_struct_vector(estructs);
    er.add_far_string(estr);
    er.add_far_vector(efar);
    e.Finish(er.Finish());
    save(dir + "/builder64_empty.bin", e.GetBufferPointer(), e.GetSize());

    // Only `offset64` fields (no `vector64`), which flatc -t can print.
    flatbuffers::FlatBufferBuilder64 o;
    auto ostructs = o.CreateVectorOfStructs<LeafStruct, flatbuffers::Offset64>(leaves.data(), 3);
    auto ostr = o.CreateString<flatbuffers::Offset64>("far away");
    auto ovec = o.CreateVector<uint8_t, flatbuffers::Offset64>(nested.data(), 6);
    auto owv = o.CreateVector<int8_t, flatbuffers::Offset64>(std::vector<int8_t>{-128, 127, 0}.data(), 3);
    auto onear = o.CreateString("near");
    auto ow = CreateWrapperTable(o, owv);
    std::vector<flatbuffers::Offset<WrapperTable>> ows{ow};
    auto omany = o.CreateVector(ows);
    RootTableBuilder orr(o);
    orr.add_far_struct_vector(ostructs);
    orr.add_far_string(ostr);
    orr.add_far_vector(ovec);
    orr.add_near_string(onear);
    orr.add_many_vectors(omany);
    orr.add_a(-1);
    o.Finish(orr.Finish());
    save(dir + "/builder64_offset64.bin", o.GetBufferPointer(), o.GetSize());
    return 0;
  }
  if (mode == "verify") {
    for (int i = 2; i < argc; i++) {
      std::ifstream f(argv[i], std::ios::binary);
      std::vector<uint8_t> data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
      flatbuffers::Verifier v(data.data(), data.size());
      std::printf("%s\n", VerifyRootTableBuffer(v) ? "ok" : "fail");
    }
    return 0;
  }
  return 2;
}
