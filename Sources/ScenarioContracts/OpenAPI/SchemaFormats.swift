import Foundation
import ScenarioEngine

/// The `format`s a schema may assert and how each is checked: `date-time` and `date` (RFC 3339),
/// `email`, `uuid`, `uri` (absolute, RFC 3986), the integer ranges `int32` and `int64`, `byte`
/// (base64); `float`, `double`, `binary` and `password` only name a representation. Any other
/// format is unknown, so the value is counted as not checked against it.
enum SchemaFormats {
    enum Verdict: Equatable {
        case accepted
        case refused(expected: String)
        case unknown
    }

    static func check(_ value: JSONValue, format: String) -> Verdict {
        switch format {
        case "int32", "int64":
            guard let number = value.numberValue else { return .accepted }
            let limit = format == "int32" ? 2_147_483_648.0 : 9_223_372_036_854_775_808.0
            return number >= -limit && number < limit && number.rounded() == number ? .accepted : .refused(expected: "an \(format)")
        case "float", "double", "binary", "password":
            return .accepted
        default:
            break
        }
        guard let text = value.stringValue else {
            return ["date-time", "date", "email", "uuid", "uri", "byte"].contains(format) ? .accepted : .unknown
        }
        let valid: Bool
        switch format {
        case "date-time": valid = isDateTime(text)
        case "date": valid = isDate(Substring(text))
        case "email": valid = isEmail(text)
        case "uuid": valid = isUUID(text)
        case "uri": valid = isURI(text)
        case "byte": valid = Data(base64Encoded: text) != nil
        default: return .unknown
        }
        return valid ? .accepted : .refused(expected: "a string in the format \(format)")
    }

    /// `YYYY-MM-DD` with a real day of its month.
    static func isDate(_ text: Substring) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month)
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    /// RFC 3339 `date-time`: a date, `T`, `HH:MM:SS`, optional fraction, then `Z` or an offset.
    static func isDateTime(_ text: String) -> Bool {
        guard let separator = text.firstIndex(where: { $0 == "T" || $0 == "t" }), isDate(text[..<separator]) else { return false }
        var time = text[text.index(after: separator)...]
        if time.hasSuffix("Z") || time.hasSuffix("z") {
            time = time.dropLast()
        } else {
            guard time.count > 6 else { return false }
            let offset = time.suffix(6)
            guard offset.first == "+" || offset.first == "-", isClock(offset.dropFirst(), seconds: false) else { return false }
            time = time.dropLast(6)
        }
        if let dot = time.firstIndex(of: ".") {
            let fraction = time[time.index(after: dot)...]
            guard !fraction.isEmpty, fraction.allSatisfy(\.isASCIIDigit) else { return false }
            time = time[..<dot]
        }
        return isClock(time, seconds: true)
    }

    private static func isClock(_ text: Substring, seconds: Bool) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == (seconds ? 3 : 2), parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60
        else { return false }
        return !seconds || (Int(parts[2]) ?? 99) <= 60
    }

    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64,
            parts[0].unicodeScalars.allSatisfy({
                $0.value > 0x20 && $0 != "(" && $0 != ")" && $0 != "," && $0 != ";" && $0 != "<" && $0 != ">"
            }),
            !parts[0].hasPrefix("."), !parts[0].hasSuffix("."), !parts[0].contains("..")
        else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2
            && labels.allSatisfy { label in
                !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
            }
    }

    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// An absolute URI: a scheme, `:`, and no character a URI cannot hold as is.
    static func isURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return false }
        let forbidden: Set<Character> = [" ", "<", ">", "\"", "{", "}", "|", "\\", "^", "`"]
        var index = text.index(after: colon)
        while index < text.endIndex {
            let character = text[index]
            if forbidden.contains(character) || character.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                return false
            }
            if character == "%" {
                let digits = text[text.index(after: index)...].prefix(2)
                guard digits.count == 2, digits.allSatisfy(\.isHexDigit) else { return false }
            }
            index = text.index(after: index)
        }
        return true
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
