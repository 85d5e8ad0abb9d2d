/// Decoding `steps`: the forms, their actions and arguments, handles and outcomes.
extension ScenarioDecoder {
    /// The steps the parser handed to ``decodeStep(_:index:)`` as it read them.
    mutating func decodeSteps(_ top: Members) -> [Step] {
        guard let member = top[K.steps] else {
            missing(K.steps, in: top, " (use [] for none)")
            return []
        }
        guard member.value.elements != nil else {
            report("'\(K.steps)' must be an array of steps; got \(Self.describe(member.value.value))", member.value, top.path(K.steps))
            return []
        }
        return readSteps
    }

    /// Decodes the step at `index` of `steps`, keeping it if it is whole.
    mutating func decodeStep(_ node: JSONNode, index: Int) {
        let stepPath = JSONPath.appending(Self.stepsPath, index: index)
        if let nameNode = node[K.name], let name = nameNode.value.stringValue {
            stepNames.append(name)
            let nameLocation = location(nameNode, JSONPath.appending(stepPath, key: K.name))
            if let first = firstStepName[name] {
                report(
                    "duplicate step name '\(name)'; step names must be unique", at: nameLocation,
                    hint: "first used at line \(first.line), column \(first.column)")
            } else {
                firstStepName[name] = Position(nameLocation)
            }
        }
        let groupChecks = node[K.group]?.elements?.contains { $0[K.expect] != nil } ?? false
        stepCount += 1
        if node[K.expect] != nil || node[K.check] != nil || groupChecks { checkingSteps += 1 }
        if let step = decodeStep(node, at: stepPath), keepsElements { readSteps.append(step) }
    }

    static let stepsPath = JSONPath.appending(JSONPath.root, key: K.steps)

    private mutating func decodeStep(_ node: JSONNode, at path: String) -> Step? {
        guard let members = node.members else {
            report("a step must be an object such as {\"\(K.do)\": \"action\"}; got \(Self.describe(node.value))", node, path)
            return nil
        }
        let kinds = members.filter { ScenarioKeys.stepKinds.contains($0.key) }
        guard let kindMember = kinds.first else {
            // Unknown keys first: a misspelt kind key ("advnce") deserves its own suggestion.
            var suggestedKind = false
            for member in members where !ScenarioKeys.allStepKeys.contains(member.key) {
                let suggestion = Suggestion.closest(to: member.key, in: ScenarioKeys.allStepKeys)
                suggestedKind = suggestedKind || suggestion.map(ScenarioKeys.stepKinds.contains) ?? false
                report(
                    "unknown key '\(member.key)' in step", at: keyLocation(member, JSONPath.appending(path, key: member.key)),
                    hint: suggestion.map { "did you mean '\($0)'?" })
            }
            if !suggestedKind {
                report(
                    "a step needs exactly one of \(ScenarioKeys.stepKinds.map { "'\($0)'" }.joined(separator: ", "))", node, path)
            }
            return nil
        }
        let kind = kindMember.key
        for extra in kinds.dropFirst() {
            report(
                "a step takes exactly one of \(ScenarioKeys.stepKinds.map { "'\($0)'" }.joined(separator: ", ")); this one already has '\(kind)'",
                at: keyLocation(extra, JSONPath.appending(path, key: extra.key)), hint: "split it into two steps")
        }
        let allowed = ScenarioKeys.stepForms[kind] ?? []
        var allowedMembers: [JSONNode.Member] = []
        for member in members {
            if allowed.contains(member.key) {
                allowedMembers.append(member)
            } else if ScenarioKeys.stepKinds.contains(member.key) {
                continue  // already reported above
            } else if ScenarioKeys.allStepKeys.contains(member.key) {
                report(
                    "'\(member.key)' does not belong in a '\(kind)' step",
                    at: keyLocation(member, JSONPath.appending(path, key: member.key)),
                    hint: "a '\(kind)' step takes: \(allowed.joined(separator: ", "))")
            } else {
                report(
                    "unknown key '\(member.key)' in '\(kind)' step",
                    at: keyLocation(member, JSONPath.appending(path, key: member.key)),
                    hint: Self.didYouMean(member.key, allowed) ?? "a '\(kind)' step takes: \(allowed.joined(separator: ", "))")
            }
        }
        let fields = Members(node: node, path: path, allowed: allowedMembers)
        let issueCount = issues.count
        let name = string(fields, K.name, nonEmpty: true)
        let stepKind: Step.Kind?
        switch kind {
        case K.do: stepKind = decodePerform(fields)
        case K.group: stepKind = decodeGroup(fields)
        case K.start: stepKind = decodeStart(fields)
        case K.await: stepKind = decodeAwait(fields)
        case K.advance:
            stepKind = fields[K.advance].flatMap { duration($0.value, at: fields.path(K.advance), "'\(K.advance)'") }.map(Step.Kind.advance)
        case K.runUntilIdle:
            if let member = fields[K.runUntilIdle], member.value.value != .bool(true) {
                report(
                    "'\(K.runUntilIdle)' must be true; got \(Self.describe(member.value.value))", member.value, fields.path(K.runUntilIdle))
            }
            stepKind = .runUntilIdle
        default:
            stepKind = fields[K.check].flatMap { decodeExpectations($0.value, at: fields.path(K.check), "'\(K.check)'") }.map(
                Step.Kind.check)
        }
        guard issues.count == issueCount, let stepKind else { return nil }
        return Step(name: name, kind: stepKind, location: location(node, path))
    }

    private mutating func decodePerform(_ fields: Members) -> Step.Kind? {
        let call = decodeCall(fields, actionKey: K.do)
        var parallel = 1
        if let member = fields[K.parallel] {
            parallel = integer(member.value, at: fields.path(K.parallel), "'\(K.parallel)'", minimum: 1, maximum: Self.maximumParallel) ?? 1
        }
        let outcome = fields[K.expect].flatMap { decodeOutcome($0.value, at: fields.path(K.expect)) }
        return call.map { .perform($0, parallel: parallel, expect: outcome) }
    }

    /// Copies of one action a step may run at once: ample for any burst, and no way for a
    /// typo to start a billion tasks.
    package static let maximumParallel = 1000

    private mutating func decodeGroup(_ fields: Members) -> Step.Kind? {
        guard let member = fields[K.group] else { return nil }
        let path = fields.path(K.group)
        guard let elements = member.value.elements, !elements.isEmpty else {
            report(
                "'\(K.group)' must be a non-empty array of {\"\(K.do)\": ..., \"\(K.with)\": ..., \"\(K.expect)\": ...}; got \(Self.describe(member.value.value))",
                member.value, path)
            return nil
        }
        var calls: [ActionCall] = []
        var outcomes: [Outcome?] = []
        for (index, element) in elements.enumerated() {
            let elementPath = JSONPath.appending(path, index: index)
            guard let entry = object(element, at: elementPath, "a '\(K.group)' entry", allowed: ScenarioKeys.groupMember) else {
                continue
            }
            guard entry.has(K.do) else {
                missing(K.do, in: entry, " (the action to run)")
                continue
            }
            if let call = decodeCall(entry, actionKey: K.do) {
                calls.append(call)
                outcomes.append(entry[K.expect].flatMap { decodeOutcome($0.value, at: entry.path(K.expect)) })
            }
        }
        return .group(calls, expects: outcomes)
    }

    private mutating func decodeStart(_ fields: Members) -> Step.Kind? {
        let call = decodeCall(fields, actionKey: K.start)
        guard let member = fields[K.as] else {
            missing(K.as, in: fields, " (the handle a later '\(K.await)' names)")
            return nil
        }
        let handlePath = fields.path(K.as)
        guard let handle = string(member.value, at: handlePath, "'\(K.as)'", nonEmpty: true) else { return nil }
        if let started = runningHandles[handle] {
            report(
                "handle '\(handle)' is still running; await it first or pick another name", member.value, handlePath,
                hint: "started at line \(started.line), column \(started.column)")
            return nil
        }
        runningHandles[handle] = location(member.value, handlePath)
        awaitedHandles.remove(handle)
        return call.map { .start($0, handle: handle) }
    }

    private mutating func decodeAwait(_ fields: Members) -> Step.Kind? {
        guard let member = fields[K.await] else { return nil }
        let path = fields.path(K.await)
        let outcome = fields[K.expect].flatMap { decodeOutcome($0.value, at: fields.path(K.expect)) }
        guard let handle = string(member.value, at: path, "'\(K.await)'", nonEmpty: true) else { return nil }
        guard runningHandles.removeValue(forKey: handle) != nil else {
            if awaitedHandles.contains(handle) {
                report("handle '\(handle)' was already awaited", member.value, path)
            } else {
                report(
                    "no earlier '\(K.start)' step created handle '\(handle)'", member.value, path,
                    hint: Self.didYouMean(handle, Array(runningHandles.keys).sorted()))
            }
            return nil
        }
        awaitedHandles.insert(handle)
        return .await(handle: handle, expect: outcome)
    }

    /// The action under `actionKey` with its `with` arguments, checked against the driver's list.
    private mutating func decodeCall(_ fields: Members, actionKey: String) -> ActionCall? {
        guard let member = fields[actionKey] else { return nil }
        let path = fields.path(actionKey)
        let name = string(member.value, at: path, "'\(actionKey)'", nonEmpty: true)
        var spec: ActionSpec?
        if let name {
            spec = actions[name]
            if spec == nil {
                report(
                    "unknown action '\(name)'", member.value, path,
                    hint: Self.didYouMean(name, actionNames) ?? "'scenario actions' lists the driver's actions")
            }
        }
        let arguments = decodeArguments(
            fields[K.with]?.value, at: fields.path(K.with), for: spec, call: member.value, callPath: path)
        guard let name, spec != nil else { return nil }
        return ActionCall(action: name, arguments: arguments, location: location(fields.node, fields.path))
    }

    /// `{"ok": true}`, `{"value": JSON}` or `{"error": "code" | {...}}`.
    mutating func decodeOutcome(_ node: JSONNode, at path: String) -> Outcome? {
        let listHint =
            "a step's '\(K.expect)' takes one of ok, value, error; expectations such as '\(K.state)' go in the top-level '\(K.expect)' or a '\(K.check)' step"
        guard let fields = object(node, at: path, "a step's '\(K.expect)'", allowed: ScenarioKeys.outcome, listHint: listHint) else {
            return nil
        }
        let given = (node.members ?? []).filter { ScenarioKeys.outcome.contains($0.key) }
        guard let first = given.first else {
            // Unknown keys were reported already, with the hint.
            if node.members?.isEmpty ?? true {
                report(
                    "a step's '\(K.expect)' needs one of {\"\(K.ok)\": true}, {\"\(K.value)\": ...} or {\"\(K.error)\": ...}", node, path)
            }
            return nil
        }
        for extra in given.dropFirst() {
            report(
                "a step's '\(K.expect)' takes exactly one of '\(K.ok)', '\(K.value)', '\(K.error)'",
                at: keyLocation(extra, fields.path(extra.key)))
        }
        guard given.count == 1 else { return nil }
        let valuePath = fields.path(first.key)
        switch first.key {
        case K.ok:
            guard first.value.value == .bool(true) else {
                report(
                    "'\(K.ok)' must be true; got \(Self.describe(first.value.value))", first.value, valuePath,
                    hint: "to expect a failure, write {\"\(K.error)\": \"code\"}")
                return nil
            }
            return .ok
        case K.value:
            return .value(first.value.value)
        default:
            switch first.value.value {
            case .string(let code) where !code.isEmpty:
                return .error(first.value.value)
            case .object:
                return .error(first.value.value)
            default:
                report(
                    "'\(K.error)' must be an error code such as \"forbidden\" or an object such as {\"code\": \"rateLimited\"}; got \(Self.describe(first.value.value))",
                    first.value, valuePath)
                return nil
            }
        }
    }
}

private typealias K = ScenarioKey
