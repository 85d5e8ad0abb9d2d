/// An answer on its way to the stack; handed on once.
final class AnswerDelivery: @unchecked Sendable {
    private var work: (@Sendable () -> Void)?

    init(_ work: @escaping @Sendable () -> Void) { self.work = work }

    func hand() {
        let work = self.work
        self.work = nil
        work?()
    }
}
