#include <doctest/doctest.h>
#include "llmc/estimate.h"
#include "llmc/fields.h"
TEST_CASE("smoke") {
  llmc::Scenario s = llmc::default_scenario();
  REQUIRE(llmc::set_field(s, "model.preset", "llama3.1-8b").ok());
  auto e = llmc::estimate(s);
  REQUIRE(e.ok());
  CHECK(e->params.total == doctest::Approx(8.03e9).epsilon(0.01));
}
