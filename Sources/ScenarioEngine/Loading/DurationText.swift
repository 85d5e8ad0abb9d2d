/// Reads scenario durations: one or more `<number><unit>` parts with units `h`, `m`, `s`, `ms`,
/// largest first, such as `"250ms"`, `"60s"`, `"1h30m"` or `"1.5s"`.
///
/// Durations are exact to the nanosecond; they are never negative.
package enum DurationText {
    /// Why a text is not a duration. The description says what to write instead.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong with the text.
        package var description: String
    }

    /// The units, largest first, with their length in nanoseconds.
    private static let units: [(name: String, nanoseconds: Int64)] = [
        ("h", 3_600_000_000_000), ("m", 60_000_000_000), ("s", 1_000_000_000), ("ms", 1_000_000),
    ]

    /// A one-line description of the accepted form, for error messages.
    package static let formHint = "write a number with a unit (ms, s, m, h), such as \"250ms\", \"60s\" or \"1h30m\""

    /// Parses `text` as a duration.
    /// - Throws: ``Failure`` for empty text, bare numbers, unknown or repeated units, and negative values.
    package static func parse(_ text: String) throws(Failure) -> Duration {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw Failure(description: "empty duration; \(formHint)") }
        if bytes[0] == UInt8(ascii: "-") { throw Failure(description: "durations cannot be negative; got \"\(text)\"") }
        var index = 0
        var total: Int64 = 0
        var lastUnitRank = -1
        while index < bytes.count {
            // The number: digits, optionally a fraction.
            let numberStart = index
            var whole: Int64 = 0
            var fraction: [UInt8] = []
            while index < bytes.count, isDigit(bytes[index]) {
                let (times10, overflow1) = whole.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int64(bytes[index] - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { throw tooLong(text) }
                whole = sum
                index += 1
            }
            let sawWhole = index > numberStart
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                while index < bytes.count, isDigit(bytes[index]) {
                    fraction.append(bytes[index] - UInt8(ascii: "0"))
                    index += 1
                }
                guard sawWhole, !fraction.isEmpty else {
                    throw Failure(description: "malformed number in duration \"\(text)\"; \(formHint)")
                }
            }
            guard sawWhole else {
                throw Failure(description: "expected a number in duration \"\(text)\"; \(formHint)")
            }
            // The unit: letters.
            let unitStart = index
            while index < bytes.count, isLetter(bytes[index]) { index += 1 }
            let unit = String(decoding: bytes[unitStart..<index], as: UTF8.self)
            if unit.isEmpty {
                if index == bytes.count {
                    let number = String(decoding: bytes[numberStart..<index], as: UTF8.self)
                    throw Failure(
                        description: "duration \"\(text)\" has no unit; say which, such as \"\(number)ms\" or \"\(number)s\"")
                }
                throw Failure(description: "unexpected character in duration \"\(text)\"; \(formHint)")
            }
            guard let rank = units.firstIndex(where: { $0.name == unit }) else {
                throw Failure(description: "unknown unit '\(unit)' in duration \"\(text)\"; units are ms, s, m and h")
            }
            guard rank > lastUnitRank else {
                throw Failure(
                    description: "units in duration \"\(text)\" must each appear once, largest first (h, m, s, ms)")
            }
            lastUnitRank = rank
            let perUnit = units[rank].nanoseconds
            let (wholePart, overflow1) = whole.multipliedReportingOverflow(by: perUnit)
            guard !overflow1 else { throw tooLong(text) }
            // The fraction, exact to the nanosecond (further digits are dropped).
            var fractionPart: Int64 = 0
            var scale = perUnit
            for digit in fraction {
                scale /= 10
                if scale == 0 { break }
                fractionPart += Int64(digit) * scale
            }
            let (partial, overflow2) = wholePart.addingReportingOverflow(fractionPart)
            let (sum, overflow3) = total.addingReportingOverflow(partial)
            guard !overflow2, !overflow3 else { throw tooLong(text) }
            total = sum
        }
        return .nanoseconds(total)
    }

    /// Formats a duration the way scenarios write it (`"1h30m"`, `"250ms"`, `"1.5s"`), for reports.
    package static func format(_ duration: Duration) -> String {
        let nanoseconds = duration.nanoseconds
        guard nanoseconds > 0 else {
            return nanoseconds == 0 ? "0ms" : "-" + format(.nanoseconds(nanoseconds == .min ? .max : -nanoseconds))
        }
        if nanoseconds % 1_000_000 != 0 {
            return "\(Double(nanoseconds) / 1_000_000)ms"
        }
        var rest = nanoseconds
        var text = ""
        for (name, perUnit) in units where rest >= perUnit {
            let count = rest / perUnit
            text += "\(count)\(name)"
            rest -= count * perUnit
        }
        return text.isEmpty ? "0ms" : text
    }

    private static func tooLong(_ text: String) -> Failure {
        Failure(description: "duration \"\(text)\" is too long; the longest is \(Int64.max / 3_600_000_000_000)h (292 years)")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}
