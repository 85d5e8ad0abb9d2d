import Foundation

/// Where a match stands: alone or inside a word, and whether digits are a credential's value.
extension SecretMasker {
    /// Whether a match found at `start..<end` is masked: anywhere for long secrets, and for any
    /// secret but digits `everywhere` (binary data); otherwise only where it stands alone; digits
    /// only as a credential name's value.
    func accepts(_ needle: Needle, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, everywhere: Bool = false) -> Bool {
        if needle.anywhere || (everywhere && !needle.keyed) { return true }
        let alone = !Self.wordBefore(start, in: bytes) || !Self.isWordByte(needle.bytes.first ?? 0)
        let aloneAfter = !Self.wordCharacter(startingAt: end, in: bytes) || !Self.isWordByte(needle.bytes.last ?? 0)
        guard alone, aloneAfter else { return false }
        return !needle.keyed || keyed(bytes, before: start)
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || wordCharacter(startingAt: 0, in: [byte])
    }

    /// Whether a word continues before `offset`; an escape (`%2F`, `\n`) ends a word.
    static func wordBefore(_ offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if offset >= 3, bytes[offset - 3] == UInt8(ascii: "%"), bytes[offset - 2].hexDigitValue != nil,
            bytes[offset - 1].hexDigitValue != nil
        {
            return false
        }
        if offset >= 2, bytes[offset - 2] == UInt8(ascii: "\\") { return false }
        return wordCharacter(endingAt: offset, in: bytes)
    }

    /// Whether the digits before `start` are the value of a credential name: `"pin": "1234"`,
    /// `code=1234`, `\"otp\":1234`, `<otp>1234`, `<input name="otp" value="1234">`; not a count
    /// under a plural (`"max_tokens": 4096`).
    func keyed(_ bytes: UnsafeBufferPointer<UInt8>, before start: Int) -> Bool {
        var at = start
        func skip(_ set: [UInt8]) { while at > 0, set.contains(bytes[at - 1]) { at -= 1 } }
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        skip([UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: " ")])
        if at > 0, bytes[at - 1] == UInt8(ascii: ">"), let open = tagStart(in: bytes, before: at - 1) {
            // An element's text: its tag's name.
            var end = open + 1
            while end < at - 1, Self.isNameByte(bytes[end]) { end += 1 }
            let name = text(open + 1..<end)
            return policy.isElementCredential(name) && !policy.holdsCounts(name)
        }
        guard at > 0, bytes[at - 1] == UInt8(ascii: ":") || bytes[at - 1] == UInt8(ascii: "=") else { return false }
        at -= 1
        skip([UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: " ")])
        let end = at
        while at > 0, Self.isNameByte(bytes[at - 1]) { at -= 1 }
        guard end > at else { return false }
        let name = text(at..<end)
        let lowered = name.lowercased()
        if lowered == "value" || lowered == "content", let open = tagStart(in: bytes, before: at) {
            // A form field's or meta tag's value: the field's name.
            guard let field = RedactionPolicy.attributes(of: Substring(text(open..<at)))["name"] else { return false }
            return policy.isCredentialName(field) && !policy.holdsCounts(field)
        }
        return policy.isCredentialName(name) && !policy.holdsCounts(name)
    }

    /// The `<` that opens the tag `offset` is inside of, within 4 KiB before it.
    private func tagStart(in bytes: UnsafeBufferPointer<UInt8>, before offset: Int) -> Int? {
        var at = offset
        while at > max(0, offset - 4096) {
            at -= 1
            if bytes[at] == UInt8(ascii: ">") { return nil }
            if bytes[at] == UInt8(ascii: "<") { return at }
        }
        return nil
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// The same replacement for a secret with non-ASCII characters, compared as Foundation does.
    static func replaceStandaloneByCharacter(_ secret: String, with mask: String, in text: String) -> String {
        guard text.contains(secret) else { return text }
        var out = ""
        var rest = text[...]
        while let range = rest.range(of: secret) {
            let before = range.lowerBound > rest.startIndex ? rest[rest.index(before: range.lowerBound)] : nil
            let after = range.upperBound < rest.endIndex ? rest[range.upperBound] : nil
            let standalone = !(before.map(isWordCharacter) ?? false) && !(after.map(isWordCharacter) ?? false)
            out += rest[..<range.lowerBound]
            out += standalone ? mask : String(rest[range])
            rest = rest[range.upperBound...]
        }
        return out + rest
    }

    /// Whether the character whose UTF-8 ends just before `offset` is part of a word.
    static func wordCharacter(endingAt offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard offset > 0 else { return false }
        var start = offset - 1
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return wordCharacter(startingAt: start, in: bytes)
    }

    static func wordCharacter(startingAt offset: Int, in bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { wordCharacter(startingAt: offset, in: $0) }
    }

    /// Whether the character whose UTF-8 starts at `offset` is part of a word: a letter, a digit,
    /// `_`, `-` or `.`, or a combining mark (which belongs to the character before it).
    static func wordCharacter(startingAt offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard offset < bytes.count else { return false }
        let byte = bytes[offset]
        if byte < 0x80 {
            let scalar = Unicode.Scalar(byte)
            return scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        var iterator = bytes[offset...].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return false }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return properties.isAlphabetic || properties.numericType != nil
        }
    }

    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-" || character == "."
    }
}

/// Which bytes an escape may stand for, to pick the needles worth trying where one begins.
extension SecretMasker {
    /// The bytes the escape at `offset` may stand for (several where it reads more than one way:
    /// `%252F` is `%` or, escaped twice, `/`); the first byte of a character beyond ASCII.
    static func escapedBytes(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let count = bytes.count
        func at(_ index: Int) -> UInt8? { index < count ? bytes[index] : nil }
        switch bytes[offset] {
        case UInt8(ascii: "+"): return [UInt8(ascii: " ")]
        case UInt8(ascii: "%"):
            var found: [UInt8] = []
            var index = offset + 1
            while let high = at(index)?.hexDigitValue, let low = at(index + 1)?.hexDigitValue, found.count < 4 {
                found.append(high << 4 | low)
                guard high << 4 | low == UInt8(ascii: "%") else { break }
                index += 2
            }
            return found
        case UInt8(ascii: "&"):
            if let (value, _) = numericEntity(in: bytes, at: offset), let scalar = Unicode.Scalar(value) {
                return [String(Character(scalar)).utf8.first ?? 0]
            }
            return htmlEntities.compactMap { byte, entities in
                entities.contains { $0.enumerated().allSatisfy { at(offset + $0.offset) == $0.element } } ? byte : nil
            }
        case UInt8(ascii: "\\"):
            var index = offset
            while at(index) == UInt8(ascii: "\\") { index += 1 }
            var found: [UInt8] = index - offset >= 2 ? [UInt8(ascii: "\\")] : []
            switch at(index) {
            case UInt8(ascii: "\""), UInt8(ascii: "/"): found.append(bytes[index])
            case UInt8(ascii: "n"): found.append(UInt8(ascii: "\n"))
            case UInt8(ascii: "r"): found.append(UInt8(ascii: "\r"))
            case UInt8(ascii: "t"): found.append(UInt8(ascii: "\t"))
            case UInt8(ascii: "u"):
                if let (scalar, _) = unicodeEscape(in: bytes, at: index) { found.append(String(Character(scalar)).utf8.first ?? 0) }
            default: break
            }
            return found
        default: return []
        }
    }

    /// Two lists of needle indices, each ascending (longest needles first), as one.
    static func merged(_ first: [Int], _ second: [Int]) -> [Int] {
        guard !second.isEmpty else { return first }
        guard !first.isEmpty else { return second }
        var result: [Int] = []
        result.reserveCapacity(first.count + second.count)
        var (i, j) = (0, 0)
        while i < first.count || j < second.count {
            if j == second.count || (i < first.count && first[i] < second[j]) {
                result.append(first[i])
                i += 1
            } else {
                if i < first.count, first[i] == second[j] { i += 1 }
                result.append(second[j])
                j += 1
            }
        }
        return result
    }
}
