// The report as Markdown: one function per section, and the template filler that writes
// docs/validation.md (docs/validation.md.in: prose with {{section FILE...}} lines).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "llmc/result.h"
#include "llmc_validate/validate.h"

namespace llmc::validate {

// The summary as lines ("records: 58 (57 modelled, 1 skipped)", "throughput: ..."), for text and Markdown.
std::vector<std::string> summary_lines(const ValidationSummary& s);

std::string markdown_conventions();                        // the conventions table
std::string markdown_profiles(const ValidationReport& r);  // one bullet per profile used
std::string markdown_results(const ValidationReport& r);   // training and model-state rows
std::string markdown_kernels(const ValidationReport& r);   // kernel benchmark rows
std::string markdown_summary(const ValidationReport& r);   // summary_lines as bullets
std::string markdown_families(const ValidationReport& r);  // one row per family
std::string markdown_judgments(
    const ValidationReport& r);  // per record: judgments, unpublished knobs, the validator's notes
std::string markdown_skipped(const ValidationReport& r);
// The throughput summary line alone.
std::string markdown_throughput_line(const ValidationReport& r);
// The training rows of `base` beside the same rows of `other` (another profile): record,
// measured, base's error, other's prediction and error.
std::string markdown_profile_comparison(const ValidationReport& base, const std::string& base_name,
                                        const ValidationReport& other, const std::string& other_name);
// Every section, for `llmcalc validate --markdown` without a template.
std::string markdown_report(const ValidationReport& r);

// Fill a template: each line "{{SECTION FILE... [--profile P]}}" becomes that section of the
// report of those files (SECTION: conventions (no file), profiles, results, kernels, summary,
// families, judgments, skipped, throughput-line, profile-comparison (the files' report beside
// the one with --profile P)), and "{{first-look FILE}}" the tables of a first-look file
// (first_look.h), "{{lofo FILE...}}" the leave-one-family-out tables of those files (lofo.h; `run`
// gets the profile choice "datasheet@F" for each fraction F); every other line is copied. `run` reads and validates the
// files with a profile choice ("" = the default); `read` returns a file's text. Error: an unknown section or a bad
// line, naming it ("template line 12"), or the first error of `run` or `read`.
using ReportSource =
    std::function<Result<ValidationReport>(const std::vector<std::string>& files, const std::string& profile)>;
using TextSource = std::function<Result<std::string>(const std::string& file)>;
Result<std::string> fill_template(const std::string& text, const ReportSource& run, const TextSource& read = {});

}  // namespace llmc::validate
