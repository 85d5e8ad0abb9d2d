/// Checks driver-defined values (action arguments and `given` keys) against their specs.
extension ScenarioDecoder {
    /// Checks a `with` object against the action's arguments: unknown names, types, choices, required ones.
    mutating func decodeArguments(_ with: JSONNode?, at path: String, for action: ActionSpec?, call: JSONNode, callPath: String)
        -> JSONValue
    {
        guard let with else {
            if let action {
                for argument in action.arguments where argument.required {
                    report(
                        "action '\(action.name)' needs argument '\(argument.name)' (\(argument.summary)); add \"\(K.with)\": {\"\(argument.name)\": ...}",
                        call, callPath)
                }
            }
            return .object([:])
        }
        guard let action else {
            if with.members == nil {
                report("'\(K.with)' must be an object of arguments; got \(Self.describe(with.value))", with, path)
            }
            return with.value
        }
        let names = action.arguments.map(\.name)
        let listHint =
            names.isEmpty
            ? "action '\(action.name)' takes no arguments"
            : "action '\(action.name)' takes: \(names.joined(separator: ", "))"
        guard let arguments = object(with, at: path, "'\(K.with)' of action '\(action.name)'", allowed: names, listHint: listHint)
        else { return .object([:]) }
        for spec in action.arguments {
            if let member = arguments[spec.name] {
                checkValue(member.value, at: arguments.path(spec.name), against: spec, owner: "argument '\(spec.name)' of '\(action.name)'")
            } else if spec.required {
                report("action '\(action.name)' needs argument '\(spec.name)' (\(spec.summary))", with, path)
            }
        }
        return with.value
    }

    /// Checks one value against an argument spec's type and choices, and an object's members
    /// against the spec's fields, as deep as they go.
    mutating func checkValue(_ node: JSONNode, at path: String, against spec: ArgumentSpec, owner: String) {
        let value = node.value
        guard Self.fits(value, spec.type) else {
            report("\(owner) must be \(Self.article(spec.type)); got \(Self.describe(value, of: spec.name))", node, path)
            return
        }
        if let fields = spec.fields, node.members != nil {
            let names = fields.map(\.name)
            let listHint = "\(owner) takes: \(names.joined(separator: ", "))"
            if let members = object(node, at: path, owner, allowed: names, listHint: listHint) {
                for field in fields {
                    if let member = members[field.name] {
                        checkValue(member.value, at: members.path(field.name), against: field, owner: "'\(field.name)' of \(owner)")
                    } else if field.required {
                        report("\(owner) needs '\(field.name)' (\(field.summary))", node, path)
                    }
                }
            }
        }
        if let each = spec.eachValue {
            for member in node.members ?? [] where !Self.fits(member.value.value, each) {
                report(
                    "'\(member.key)' of \(owner) must be \(Self.article(each)); got \(Self.describe(member.value.value, of: member.key))",
                    member.value,
                    JSONPath.appending(path, key: member.key))
            }
        }
        if let choices = spec.choices, let text = value.stringValue, !choices.contains(text) {
            report(
                "\(owner) must be one of \(choices.map { "\"\($0)\"" }.joined(separator: ", ")); got \(Self.describe(value, of: spec.name))",
                node, path, hint: Self.didYouMean(text, choices))
        }
    }

    static func fits(_ value: JSONValue, _ type: ArgumentSpec.ValueType) -> Bool {
        switch type {
        case .string: value.stringValue != nil
        case .number: value.numberValue != nil
        case .integer: value.intValue != nil
        case .positiveInteger: (value.intValue ?? 0) > 0
        case .boolean: value.boolValue != nil
        case .object: value.objectValue != nil
        case .array: value.arrayValue != nil
        case .duration: value.stringValue.flatMap { try? DurationText.parse($0) }.map { $0 > .zero } ?? false
        case .any: true
        }
    }

    static func article(_ type: ArgumentSpec.ValueType) -> String {
        switch type {
        case .duration: "a duration above zero, such as \"15s\""
        case .positiveInteger: "a whole number above zero"
        case .string: "a string"
        case .number: "a number"
        case .integer: "an integer"
        case .boolean: "true or false"
        case .object: "an object"
        case .array: "an array"
        case .any: "any JSON value"
        }
    }
}

private typealias K = ScenarioKey
