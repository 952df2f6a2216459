// Writes union_underlying_type.bin: a `UnionUnderlyingType.D` of
// flatbuffers/tests/union_underlying_type_test.fbs built by the C++ code flatc 25.12.19
// generates for it (flatc's JSON parser, printer and annotator do not handle unions with an
// underlying type; its C++ and TypeScript generators do). To regenerate:
//
//   flatc --cpp -o . ../../../../../shared/testdata/flatbuffers/tests/union_underlying_type_test.fbs
//   g++ -std=c++17 -I<flatbuffers 25.12.19 include dir> union_underlying_type.cpp -o uut
//   ./uut > union_underlying_type.bin
#include <cstdio>
#include <vector>

#include "union_underlying_type_test_generated.h"

using namespace UnionUnderlyingType;

int main() {
  flatbuffers::FlatBufferBuilder fbb;
  auto hello = CreateBDirect(fbb, "hello");
  auto a = CreateA(fbb, 42);
  auto c = CreateC(fbb, true);
  auto x = CreateBDirect(fbb, "x");
  std::vector<int32_t> types = {ABC_A, ABC_C, ABC_B};
  std::vector<flatbuffers::Offset<void>> values = {a.Union(), c.Union(), x.Union()};
  fbb.Finish(CreateDDirect(fbb, ABC_B, hello.Union(), &types, &values));
  flatbuffers::Verifier verifier(fbb.GetBufferPointer(), fbb.GetSize());
  if (!verifier.VerifyBuffer<D>(nullptr)) return 1;
  fwrite(fbb.GetBufferPointer(), 1, fbb.GetSize(), stdout);
  return 0;
}
