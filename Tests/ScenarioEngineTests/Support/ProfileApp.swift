import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A profile screen's stack in the delegate-and-closure style: an API client whose URLSession
/// calls back on the client's own `OperationQueue`, where its token lives; `Result<Profile,
/// ProfileError>` completions and a delegate, all delivered with `DispatchQueue.main.async`; a
/// store of main-queue state that is the client's delegate. The model is a class and not
/// `Sendable`, as many apps' models are. Nothing in it knows about scenarios.
final class Profile {
    let id: String
    var name: String

    init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// `{"data": {"id": …, "name": …}}`.
    convenience init?(json: Data?) {
        guard let json, let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
            let data = object["data"] as? [String: Any], let id = data["id"] as? String, let name = data["name"] as? String
        else { return nil }
        self.init(id: id, name: name)
    }
}

enum ProfileError: Error {
    case unauthorized, offline, badBody
    case server(Int)
}

protocol ProfileClientDelegate: AnyObject {
    /// The server no longer takes the token (a 401); called on the main queue.
    func profileClientDidLoseSession(_ client: ProfileClient)
}

final class ProfileClient: @unchecked Sendable {
    typealias Completion = @Sendable (Result<Profile, ProfileError>) -> Void

    /// Set and called on the main queue.
    weak var delegate: (any ProfileClientDelegate)?
    private let base: URL
    private let callbacks = OperationQueue()
    private let session: URLSession
    // Read and written on `callbacks` only.
    private var token: String?

    init(configuration: URLSessionConfiguration, base: URL, token: String?) {
        callbacks.maxConcurrentOperationCount = 1
        callbacks.name = "ProfileClient.callbacks"
        self.base = base
        self.token = token
        session = URLSession(configuration: configuration, delegate: nil, delegateQueue: callbacks)
    }

    func signIn(email: String, password: String, completion: @escaping Completion) {
        send("POST", "/session", json: ["email": email, "password": password]) { data, status in
            if status == 200, let object = try? JSONSerialization.jsonObject(with: data ?? Data()) as? [String: Any],
                let token = (object["data"] as? [String: Any])?["token"] as? String
            {
                self.token = token
            }
            self.deliver(data, status: status, to: completion)
        }
    }

    func fetchProfile(completion: @escaping Completion) {
        send("GET", "/me") { data, status in self.deliver(data, status: status, to: completion) }
    }

    func rename(to name: String, completion: @escaping Completion) {
        send("PATCH", "/me", json: ["name": name]) { data, status in self.deliver(data, status: status, to: completion) }
    }

    func forgetToken() {
        callbacks.addOperation { self.token = nil }
    }

    /// Sends on `callbacks`, where the token is read; `handle` runs there too. Status 0: no answer.
    private func send(_ method: String, _ path: String, json: [String: String]? = nil, handle: @escaping @Sendable (Data?, Int) -> Void) {
        callbacks.addOperation {
            var request = URLRequest(url: self.base.appendingPathComponent(path))
            request.httpMethod = method
            if let token = self.token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
            if let json {
                request.httpBody = try? JSONSerialization.data(withJSONObject: json, options: .sortedKeys)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            self.session.dataTask(with: request) { data, response, _ in
                handle(data, (response as? HTTPURLResponse)?.statusCode ?? 0)
            }.resume()
        }
    }

    /// On `callbacks`: a 401 forgets the token; the model is made, and the delegate and the
    /// completion called, on the main queue.
    private func deliver(_ data: Data?, status: Int, to completion: @escaping Completion) {
        if status == 401 { token = nil }
        DispatchQueue.main.async {
            switch status {
            case 200..<300:
                completion(Profile(json: data).map { .success($0) } ?? .failure(.badBody))
            case 401:
                self.delegate?.profileClientDidLoseSession(self)
                completion(.failure(.unauthorized))
            case 0: completion(.failure(.offline))
            default: completion(.failure(.server(status)))
            }
        }
    }
}

/// What the profile screen shows; read and written on the main queue only. The client's delegate.
final class ProfileStore: ProfileClientDelegate, @unchecked Sendable {
    let client: ProfileClient
    private(set) var profile: Profile?
    private(set) var signedIn: Bool
    private(set) var alerts: [String] = []
    private(set) var timeline: [String] = []
    /// Calls that did not come on the main thread, as a view controller's would.
    private(set) var offMainCalls = 0
    /// The planted bug: a lost session leaves the last profile on screen.
    private let keepsProfileAfter401: Bool

    init(client: ProfileClient, signedIn: Bool, keepsProfileAfter401: Bool = false) {
        self.client = client
        self.signedIn = signedIn
        self.keepsProfileAfter401 = keepsProfileAfter401
        client.delegate = self
    }

    func signIn(email: String, password: String, completion: @escaping ProfileClient.Completion) {
        noteThread()
        client.signIn(email: email, password: password) { result in
            if case .success(let profile) = result {
                self.profile = profile
                self.signedIn = true
                self.timeline.append("signedIn")
            }
            completion(result)
        }
    }

    func loadProfile(completion: @escaping ProfileClient.Completion) {
        noteThread()
        client.fetchProfile { result in
            if case .success(let profile) = result { self.profile = profile }
            completion(result)
        }
    }

    func rename(to name: String, completion: @escaping ProfileClient.Completion) {
        noteThread()
        client.rename(to: name) { result in
            if case .success(let profile) = result { self.profile = profile }
            completion(result)
        }
    }

    func signOut(completion: @escaping @Sendable () -> Void) {
        noteThread()
        client.forgetToken()
        profile = nil
        signedIn = false
        timeline.append("signedOut")
        DispatchQueue.main.async { completion() }
    }

    func profileClientDidLoseSession(_ client: ProfileClient) {
        signedIn = false
        if !keepsProfileAfter401 { profile = nil }
        alerts.append("Your session has ended")
        timeline.append("sessionLost")
    }

    private func noteThread() {
        if !Thread.isMainThread { offMainCalls += 1 }
    }
}
