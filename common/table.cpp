#include "table.hpp"

std::string format_fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string format_general(double value, int significant) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*g", significant, value);
    return text;
}
