/// Where the api client's policy reports what the UI must know; forwards to the store on the
/// main actor. The store attaches itself when it is created.
@MainActor
final class SessionEvents {
    weak var store: AppStore?

    nonisolated init() {}

    func accountBlocked() async {
        await store?.accountBlocked()
    }

    func sessionEnded() async {
        await store?.sessionEnded()
    }

    func rateLimited(message: String?) {
        store?.rateLimited(message: message)
    }
}
