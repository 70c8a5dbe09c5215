// What the solution's host side and the driver do without a GPU.
#include <string>
#include <vector>

#include "catch.hpp"
#include "lab2.hpp"
#include "pitched.h"

TEST_CASE("a host matrix is wrapped dense: pitch = width in bytes, xsize the columns") {
    std::vector<float> data(3 * 5);
    cudaPitchedPtr m = wrap_host_matrix(data.data(), 3, 5);
    CHECK(m.ptr == data.data());
    CHECK(m.pitch == 5 * sizeof(float));
    CHECK(m.xsize == 5u);
    CHECK(m.ysize == 3u);
}

TEST_CASE("the lab declares its parts in ladder order, multiplies in GFLOP/s and copies in GB/s") {
    LabInfo lab = lab2();
    CHECK(lab.parts == std::vector<std::string>{"copies", "plain_naive", "pitched_naive", "naive_at", "plain_tiled",
                                                "pitched_tiled", "transpose"});
    REQUIRE(lab.metrics.size() == 2);
    CHECK(lab.metrics[0].csv_name == "gflops");
    CHECK(lab.metrics[1].csv_name == "gbps");
    REQUIRE(lab.yardsticks.size() == 4);
    CHECK(lab.yardsticks[1].name == "copy2d");
}
