/// Subset matching of JSON values, the rule every expectation in a scenario uses.
///
/// Objects: every expected key must match (`null` expects the key absent or null; keys not
/// named are not checked), and an empty expected object `{}` matches only an empty object, so it
/// says "empty" rather than nothing. Arrays: same length, element by element. Scalars: equal
/// (numbers by value).
package enum JSONMatch {
    /// One place where the actual value differs from the expected one.
    package struct Mismatch: Sendable, Hashable, CustomStringConvertible {
        /// The JSON path below the compared value, such as `.tokens.access` or `[2].title`.
        package var path: String
        /// The expected value there, rendered.
        package var expected: String
        /// The actual value there, rendered (`absent` when missing).
        package var actual: String

        /// The mismatch as "path: expected X, got Y", with `(value)` for the compared value itself.
        package var description: String {
            "\(path.isEmpty ? "(value)" : path): expected \(expected), got \(actual)"
        }
    }

    /// Every place `actual` fails to contain `expected`, in document order.
    package static func mismatches(expected: JSONValue, actual: JSONValue?, path: String = "") -> [Mismatch] {
        switch (expected, actual) {
        case (.null, nil), (.null, .null?):
            return []
        case (_, nil):
            return [Mismatch(path: path, expected: expected.compactText, actual: "absent")]
        case (.object(let want), .object(let have)?):
            if want.isEmpty, !have.isEmpty {
                return [
                    Mismatch(
                        path: path, expected: "{} (empty)", actual: "\(have.count) member(s): " + have.map(\.key).joined(separator: ", "))
                ]
            }
            return want.flatMap { member in
                mismatches(expected: member.value, actual: have[member.key], path: path + "." + member.key)
            }
        case (.array(let want), .array(let have)?):
            guard want.count == have.count else {
                return [Mismatch(path: path, expected: "\(want.count) element(s)", actual: "\(have.count) element(s)")]
            }
            return zip(want, have).enumerated().flatMap { index, pair in
                mismatches(expected: pair.0, actual: pair.1, path: path + "[\(index)]")
            }
        case (let want, let have?):
            return want == have ? [] : [Mismatch(path: path, expected: want.compactText, actual: have.compactText)]
        }
    }

    /// The actual value cut down to the shape of the expected one, so a diff shows only what
    /// was asked about: object keys the expectation does not name are left out, except under an
    /// expected `{}`, which asks about every key.
    package static func project(_ actual: JSONValue?, onto expected: JSONValue) -> JSONValue {
        switch (expected, actual) {
        case (.object(let want), .object?) where want.isEmpty:
            return actual ?? .null
        case (.object(let want), .object(let have)?):
            var out = JSONObject()
            for member in want {
                out[member.key] =
                    member.value == .null && have[member.key] == nil
                    ? .null : project(have[member.key], onto: member.value)
            }
            return .object(out)
        case (.array(let want), .array(let have)?):
            return .array(
                have.enumerated().map { index, element in
                    index < want.count ? project(element, onto: want[index]) : element
                })
        case (_, nil): return .null
        case (_, let have?): return have
        }
    }
}
