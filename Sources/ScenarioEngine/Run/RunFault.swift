/// Why a run could not finish: what its result's error says, where it points, and what it is
/// about as data (stuck, escaped, or a fault by name).
struct RunFault: Sendable {
    var message: String
    var location: ScenarioLocation?
    var subject: FailureSubject

    init(message: String, location: ScenarioLocation? = nil, subject: FailureSubject) {
        self.message = message
        self.location = location
        self.subject = subject
    }
}
