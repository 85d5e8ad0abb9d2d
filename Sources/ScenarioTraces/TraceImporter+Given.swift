import Foundation
import ScenarioEngine

/// The draft's `given`: what the app had when the capture began.
extension TraceImporter {
    /// The draft's `given`: the trace's first instant as the clock's start, and what the spec
    /// builds from the credentials the app had stored.
    /// - Throws: when the spec's `given` builds something other than an object of members.
    func given(_ items: [Item], credentials: TraceImportSpec.Credentials, file: String) throws(Failure) -> JSONValue {
        var given: JSONObject = [:]
        if let first = items.first {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            given[K.clock] = [K.start: .string(formatter.string(from: first.entry.started))]
        }
        guard let build = spec.given else { return .object(given) }
        let built = build(credentials)
        guard case .object(let extra) = built else {
            // Its kind only: the value may hold the credentials themselves.
            throw Failure(
                file: file, "the driver's traceImport '\(K.given)' built \(built.typeDescription), not an object of given members",
                hint: "make the driver's TraceImportSpec '\(K.given)' return an object of given members, such as "
                    + "[\"session\": [\"accessToken\": ...]], or [:] when there is nothing to store")
        }
        for member in extra { given[member.key] = member.value }
        return .object(given)
    }

    /// The first bearer credential and refresh token the trace sends that no answer before them
    /// handed out: what the app had stored when the capture began.
    func storedCredentials(_ items: [Item]) -> TraceImportSpec.Credentials {
        var seenInResponses = ""
        var access: String?
        var refresh: String?
        for item in items {
            // Only a bearer token is an access token; `Basic`, `Token` or `api_key` credentials are not.
            if access == nil, let header = item.entry.request.headers.first(named: "Authorization"),
                header.lowercased().hasPrefix("bearer "),
                let credential = SecretRedactor.credentials(in: header).first, !seenInResponses.contains(credential)
            {
                access = credential
            }
            if refresh == nil, let body = item.entry.request.body, let json = JSONValue.parse(Data(body.utf8)),
                let token = Self.firstValue(in: json, key: "refreshtoken"), !seenInResponses.contains(token)
            {
                refresh = token
            }
            // Only a credential the trace did not hand out itself comes from a stored session.
            if let response = item.entry.response, seenInResponses.utf8.count < 4_000_000 {
                seenInResponses += String(decoding: response.body.prefix(100_000), as: UTF8.self)
            }
            if access != nil && refresh != nil { break }
        }
        return TraceImportSpec.Credentials(accessToken: access, refreshToken: refresh)
    }

    private static func firstValue(in json: JSONValue, key: String) -> String? {
        switch json {
        case .object(let object):
            for member in object {
                if member.key.lowercased().filter({ $0 != "_" && $0 != "-" }) == key, let text = member.value.stringValue { return text }
                if let found = firstValue(in: member.value, key: key) { return found }
            }
            return nil
        case .array(let elements): return elements.lazy.compactMap { firstValue(in: $0, key: key) }.first
        default: return nil
        }
    }
}

private typealias K = ScenarioKey
