#include "table.hpp"

std::string format_fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string format_general(double value) {
    char text[64];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}
