import Foundation

/// Finds secret values in scenario files and looks for them in reports.
enum SecretScan {
    /// Keys whose string values are secrets (compared without case).
    static let keys: Set<String> = ["accesstoken", "refreshtoken", "access_token", "refresh_token", "password", "token"]

    /// Every string value of a secret-like key anywhere in the JSON files.
    static func secrets(inFiles files: [URL]) -> Set<String> {
        var found = Set<String>()
        for file in files {
            guard let data = try? Data(contentsOf: file), let object = try? JSONSerialization.jsonObject(with: data) else { continue }
            collect(object, into: &found)
        }
        return found
    }

    private static func collect(_ value: Any, into found: inout Set<String>) {
        if let object = value as? [String: Any] {
            for (key, member) in object {
                if keys.contains(key.lowercased()), let string = member as? String, !string.isEmpty {
                    found.insert(string)
                } else {
                    collect(member, into: &found)
                }
            }
        } else if let array = value as? [Any] {
            for element in array { collect(element, into: &found) }
        }
    }

    /// The secrets that occur in the text as a whole word (not inside a longer word, the way
    /// the redactor masks them, so a short token such as `A1` does not match `A10`).
    static func leaks(of secrets: Set<String>, in text: String) -> [String] {
        secrets.filter { occursStandalone($0, in: text) }.sorted()
    }

    private static func occursStandalone(_ secret: String, in text: String) -> Bool {
        var rest = text[...]
        while let range = rest.range(of: secret) {
            let before = range.lowerBound > rest.startIndex ? rest[rest.index(before: range.lowerBound)] : nil
            let after = range.upperBound < rest.endIndex ? rest[range.upperBound] : nil
            if !(before.map(isWordCharacter) ?? false), !(after.map(isWordCharacter) ?? false) { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-" || character == "."
    }
}
