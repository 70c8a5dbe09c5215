#include "args.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "fail.hpp"

ArgParser::ArgParser(std::string program, std::string summary)
    : program_(std::move(program)), summary_(std::move(summary)) {
    flag("help", "print this help and exit");
}

void ArgParser::option(const std::string& name, const std::string& value_name,
                       const std::string& default_value, const std::string& help) {
    options_.push_back({name, value_name, default_value, default_value, help, false, false});
}

void ArgParser::flag(const std::string& name, const std::string& help) {
    options_.push_back({name, "", "", "", help, true, false});
}

ArgParser::Option* ArgParser::lookup(const std::string& name) {
    for (Option& o : options_)
        if (o.name == name) return &o;
    return nullptr;
}

const ArgParser::Option& ArgParser::find(const std::string& name) const {
    for (const Option& o : options_)
        if (o.name == name) return o;
    throw std::logic_error("option --" + name + " was never declared");
}

void ArgParser::parse(int argc, const char* const* argv) {
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg.rfind("--", 0) != 0)
            fail(exit_code::bad_usage, "unexpected argument '" + arg + "' (options start with --; see --help)");
        std::string name = arg.substr(2), value;
        bool inline_value = false;
        if (size_t eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            inline_value = true;
        }
        Option* o = lookup(name);
        if (!o) fail(exit_code::bad_usage, "unknown option --" + name + " (see --help)");
        o->given = true;
        if (o->is_flag) {
            if (inline_value) fail(exit_code::bad_usage, "--" + name + " takes no value");
            continue;
        }
        if (!inline_value) {
            if (i + 1 >= argc) fail(exit_code::bad_usage, "--" + name + " needs a value: " + o->value_name);
            value = argv[++i];
        }
        o->value = value;
    }
    if (is_set("help")) {
        std::fputs(usage().c_str(), stdout);
        std::exit(exit_code::ok);
    }
}

std::string ArgParser::usage() const {
    std::string text = "usage: " + program_ + " [options]\n" + summary_ + "\n\noptions:\n";
    for (const Option& o : options_) {
        std::string left = "  --" + o.name + (o.is_flag ? "" : " " + o.value_name);
        if (left.size() < 24) left.resize(24, ' ');
        else left += "  ";
        text += left + o.help;
        if (!o.is_flag && !o.default_value.empty()) text += " (default " + o.default_value + ")";
        text += "\n";
    }
    return text;
}

std::string ArgParser::text(const std::string& name) const { return find(name).value; }

bool ArgParser::is_set(const std::string& name) const { return find(name).given; }

long long ArgParser::integer(const std::string& name, long long min, long long max) const {
    const std::string& value = find(name).value;
    size_t used = 0;
    long long n = 0;
    try {
        n = std::stoll(value, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != value.size())
        fail(exit_code::bad_usage, "--" + name + " must be a whole number, got '" + value + "'");
    if (n < min || n > max)
        fail(exit_code::bad_usage, "--" + name + " must be between " + std::to_string(min) + " and " +
                                       std::to_string(max) + ", got " + value);
    return n;
}

double ArgParser::number(const std::string& name, double min, double max) const {
    const std::string& value = find(name).value;
    size_t used = 0;
    double x = 0;
    try {
        x = std::stod(value, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != value.size() || !(x >= min && x <= max))
        fail(exit_code::bad_usage, "--" + name + " must be a number between " + std::to_string(min) +
                                       " and " + std::to_string(max) + ", got '" + value + "'");
    return x;
}

std::vector<std::string> split_list(const std::string& text, char separator) {
    std::vector<std::string> items;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find(separator, start);
        if (end == std::string::npos) end = text.size();
        if (end > start) items.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return items;
}

std::string join_list(const std::vector<std::string>& items, const std::string& separator) {
    std::string text;
    for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
    return text;
}
