import Foundation

/// Typed access to members, each reporting what is wrong where it is.
extension ScenarioDecoder {
    /// Checks that `node` is an object with only `allowed` keys, reporting anything else.
    mutating func object(
        _ node: JSONNode, at path: String, _ what: String, allowed: [String], listHint: String? = nil
    ) -> Members? {
        guard let members = node.members else {
            report("\(what) must be an object; got \(node.value.typeDescription)", node, path)
            return nil
        }
        var unknown = false
        var suggested: Set<String> = []
        for member in members {
            if !allowed.contains(member.key) {
                unknown = true
                let suggestion = Suggestion.closest(to: member.key, in: allowed)
                if let suggestion { suggested.insert(suggestion) }
                let hint =
                    suggestion.map { "did you mean '\($0)'?" }
                    ?? listHint ?? "\(what) takes: \(allowed.joined(separator: ", "))"
                report(
                    "unknown key '\(member.key)' in \(what)",
                    at: keyLocation(member, JSONPath.appending(path, key: member.key)), hint: hint)
            }
        }
        let kept = unknown ? members.filter { allowed.contains($0.key) } : Array(members)
        return Members(node: node, path: path, allowed: kept, suggested: suggested)
    }

    /// Reports a required key that is missing, at the object that lacks it.
    mutating func missing(_ key: String, in members: Members, _ explanation: String = "") {
        guard !members.suggested.contains(key) else { return }
        report("missing required key '\(key)'\(explanation)", members.node, members.path)
    }

    mutating func string(_ members: Members, _ key: String, required: Bool = false, nonEmpty: Bool = false) -> String? {
        guard let member = members[key] else {
            if required { missing(key, in: members) }
            return nil
        }
        return string(member.value, at: members.path(key), "'\(key)'", nonEmpty: nonEmpty)
    }

    mutating func string(_ node: JSONNode, at path: String, _ what: String, nonEmpty: Bool = false) -> String? {
        guard let text = node.value.stringValue else {
            report("\(what) must be a string; got \(Self.describe(node.value))", node, path)
            return nil
        }
        if nonEmpty && text.isEmpty {
            report("\(what) must not be empty", node, path)
            return nil
        }
        return text
    }

    mutating func bool(_ members: Members, _ key: String) -> Bool? {
        guard let member = members[key] else { return nil }
        guard let value = member.value.value.boolValue else {
            report("'\(key)' must be true or false; got \(Self.describe(member.value.value))", member.value, members.path(key))
            return nil
        }
        return value
    }

    /// An integer of at least `minimum` (and at most `maximum`), described in messages as `expected`.
    mutating func integer(
        _ node: JSONNode, at path: String, _ what: String, minimum: Int, maximum: Int? = nil
    ) -> Int? {
        let range = maximum.map { "an integer from \(minimum) to \($0)" } ?? "an integer >= \(minimum)"
        guard let value = node.value.intValue, value >= minimum, value <= (maximum ?? Int.max) else {
            // Whole numbers beyond what a double holds exactly are not integers to the loader.
            let tooLarge = node.value.numberValue.map { abs($0) >= 9e15 && $0.rounded() == $0 } ?? false
            let got = Self.describe(node.value) + (tooLarge ? ", beyond the largest integer a scenario holds (9e15)" : "")
            report("\(what) must be \(range); got \(got)", node, path)
            return nil
        }
        return value
    }

    mutating func stringArray(_ members: Members, _ key: String) -> [String]? {
        guard let member = members[key] else { return nil }
        let path = members.path(key)
        guard let elements = member.value.elements else {
            report("'\(key)' must be an array of strings; got \(Self.describe(member.value.value))", member.value, path)
            return nil
        }
        var result: [String] = []
        for (index, element) in elements.enumerated() {
            if let text = string(element, at: JSONPath.appending(path, index: index), "each of '\(key)'") {
                result.append(text)
            }
        }
        return result
    }

    /// An object whose values are all strings, in written order.
    mutating func stringPairs(_ node: JSONNode, at path: String, _ what: String) -> [(String, String)] {
        guard let members = node.members else {
            report("\(what) must be an object of strings; got \(Self.describe(node.value))", node, path)
            return []
        }
        var pairs: [(String, String)] = []
        for member in members {
            let memberPath = JSONPath.appending(path, key: member.key)
            guard let value = member.value.value.stringValue else {
                report(
                    "values in \(what) must be strings; got \(Self.describe(member.value.value)) for '\(member.key)'",
                    member.value, memberPath,
                    hint: member.value.value.numberValue != nil || member.value.value.boolValue != nil
                        ? "write it in quotes: \(JSONValue.string(member.value.value.compactText).compactText)" : nil)
                continue
            }
            pairs.append((member.key, value))
        }
        return pairs
    }

    mutating func duration(_ node: JSONNode, at path: String, _ what: String) -> Duration? {
        guard let text = node.value.stringValue else {
            // Suggest only what would load: durations are never negative.
            let hint = node.value.numberValue.map { number in
                number < 0
                    ? "durations cannot be negative; write a positive one such as \"\(JSONValue.number(-number).compactText)s\", or \"0s\""
                    : "write \"\(JSONValue.number(number).compactText)ms\" or \"\(JSONValue.number(number).compactText)s\""
            }
            report(
                "\(what) must be a duration string such as \"250ms\" or \"60s\"; got \(Self.describe(node.value))", node, path, hint: hint)
            return nil
        }
        do {
            return try DurationText.parse(text)
        } catch {
            report("\(what): \(error.description)", node, path)
            return nil
        }
    }
}
