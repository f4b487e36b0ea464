#include "traces/json_writer.h"

#include <gtest/gtest.h>

#include <limits>
#include <sstream>

namespace coralsim::traces::json_writer_test {
namespace {

TEST(JsonWriter, WritesNestedContainersOnOneLine) {
  std::ostringstream os;
  JsonWriter w(os);
  w.beginObject().field("a", 1).key("b").beginArray().value("x").value(true).null().endArray();
  w.key("c").beginObject().endObject().key("d").beginArray().endArray().endObject();
  EXPECT_EQ(os.str(), R"({"a":1,"b":["x",true,null],"c":{},"d":[]})");
}

TEST(JsonWriter, EscapesControlCharactersAndQuotes) {
  EXPECT_EQ(JsonWriter::escape("a\"b\\c\n\x01"), "a\\\"b\\\\c\\n\\u0001");
}

TEST(JsonWriter, NonFiniteDoublesBecomeStrings) {
  std::ostringstream os;
  JsonWriter w(os);
  w.beginArray().value(std::numeric_limits<double>::infinity()).value(0.5).endArray();
  EXPECT_EQ(os.str(), R"(["inf",0.5])");
}

TEST(JsonWriter, PrettyPrintsWithIndent) {
  std::ostringstream os;
  JsonWriter w(os, 2);
  w.beginObject().field("a", 1).endObject();
  EXPECT_EQ(os.str(), "{\n  \"a\": 1\n}");
}

}  // namespace
}  // namespace coralsim::traces::json_writer_test
