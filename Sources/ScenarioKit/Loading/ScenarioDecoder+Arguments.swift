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
                        "action '\(action.name)' needs argument '\(argument.name)' (\(argument.summary)); add \"with\": {\"\(argument.name)\": ...}",
                        call, callPath)
                }
            }
            return .object([:])
        }
        guard let action else {
            if with.members == nil {
                report("'with' must be an object of arguments; got \(Self.describe(with.value))", with, path)
            }
            return with.value
        }
        let names = action.arguments.map(\.name)
        let listHint =
            names.isEmpty
            ? "action '\(action.name)' takes no arguments"
            : "action '\(action.name)' takes: \(names.joined(separator: ", "))"
        guard let arguments = object(with, at: path, "'with' of action '\(action.name)'", allowed: names, listHint: listHint)
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

    /// Checks one value against an argument spec's type and choices.
    mutating func checkValue(_ node: JSONNode, at path: String, against spec: ArgumentSpec, owner: String) {
        let value = node.value
        let fits: Bool =
            switch spec.type {
            case .string: value.stringValue != nil
            case .number: value.numberValue != nil
            case .integer: value.intValue != nil
            case .boolean: value.boolValue != nil
            case .object: value.objectValue != nil
            case .array: value.arrayValue != nil
            case .any: true
            }
        guard fits else {
            report("\(owner) must be \(Self.article(spec.type)); got \(Self.describe(value))", node, path)
            return
        }
        if let choices = spec.choices, let text = value.stringValue, !choices.contains(text) {
            report(
                "\(owner) must be one of \(choices.map { "\"\($0)\"" }.joined(separator: ", ")); got \(Self.describe(value))",
                node, path, hint: Self.didYouMean(text, choices))
        }
    }

    static func article(_ type: ArgumentSpec.ValueType) -> String {
        switch type {
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
