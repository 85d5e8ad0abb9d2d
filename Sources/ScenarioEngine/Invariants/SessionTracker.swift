import Foundation
import HTTPCore

/// Follows a run's sessions as ``SessionSpec`` defines them, one event at a time: call
/// ``sent(_:)`` and ``answered(_:_:)`` in the order things happened.
struct SessionTracker {
    let spec: SessionSpec
    /// The session under way: 0 for the one the run began in.
    private(set) var current = 0
    /// The request whose answer began each later session.
    private var beganBy: [Int: Int] = [:]
    private var credentials: [String: Int] = [:]
    private var sessionOf: [Int: Int] = [:]

    init(_ spec: SessionSpec) { self.spec = spec }

    mutating func sent(_ request: RunRecord.Request) {
        let carried = spec.credentials.lazy.compactMap { $0.read(from: request.request) }.first
        guard let carried else {
            sessionOf[request.number] = current
            return
        }
        // A credential nothing handed out (one `given` set up) belongs to the session it is first seen in.
        let session = credentials[carried] ?? current
        credentials[carried] = session
        sessionOf[request.number] = session
    }

    mutating func answered(_ request: RunRecord.Request, _ answer: RunRecord.Answer) {
        guard let status = answer.status, StatusSet.success.contains(status) else { return }
        let json = spec.issued.isEmpty ? nil : JSONValue.parse(answer.body)
        let handedOut = spec.issued.compactMap { path in ValueReference.text(json?.at(path: path)) }
        if spec.startWith.contains(where: { $0.matches(MatchCandidate(request.request)) }) {
            current += 1
            beganBy[current] = request.number
            for credential in handedOut { credentials[credential] = current }
        } else {
            // A refresh's new token stays with the session that asked for it, even when it comes back late.
            let session = session(of: request.number)
            for credential in handedOut where credentials[credential] == nil { credentials[credential] = session }
        }
    }

    /// The session request `number` belongs to (it must have been passed to ``sent(_:)``).
    func session(of number: Int) -> Int { sessionOf[number] ?? current }

    /// The request whose 2xx answer began `session`; `nil` for the first.
    func start(of session: Int) -> Int? { beganBy[session] }

    /// A session, for messages: `the first session`, `the session the answer to #3 began`.
    func describe(_ session: Int) -> String {
        guard let number = beganBy[session] else { return "the first session" }
        return "the session the answer to #\(number) began"
    }
}
