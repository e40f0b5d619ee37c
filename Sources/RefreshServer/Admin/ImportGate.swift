import Foundation
import HTTPTypes
import Synchronization

/// One store writer of the admin API at a time: an import, a one-location edit, or a write of the audit log.
///
/// SQLite has one writer, and an import holds it for its whole transaction: a second import or an edit would only
/// queue behind it, and an audit write between an import's first read and its first write would end the import with a
/// busy snapshot. So an import or an edit that finds another one is refused at once (409 naming the holder: what it
/// is, whose key, since when), while one that finds the audit writer waits for it — its writes take milliseconds, and
/// the writer hands the gate over when it leaves rather than anyone polling for it. The gate is taken only once an
/// upload is staged: a client sending its file slowly holds nobody else.
final class ImportGate: Sendable {
    /// Who holds the gate for an import or an edit, as a 409 names them.
    struct Holder: Sendable, Hashable {
        enum Kind: String, Sendable {
            case `import`, edit
        }

        var kind: Kind
        /// The admin key that began it (`bootstrap` for the configured token).
        var keyId: String
        var since: Date
    }

    private enum Occupant {
        case free
        case writer(Holder)
        case audit
    }

    private struct State {
        var occupant = Occupant.free
        /// Imports and edits waiting for the audit writer to leave, in order of arrival.
        var waiting: [(holder: Holder, resume: CheckedContinuation<Holder?, Never>)] = []
    }

    private let state = Mutex(State())
    /// Signalled whenever the gate becomes free: the audit writer, which must not write while an import does, waits
    /// on it rather than looking again and again.
    let freed = WakeSignal()

    /// Takes the gate for `holder`; nil when taken, or the import or edit that holds it. Waits only for the audit
    /// writer, which hands the gate to the first waiter when it leaves.
    func enter(_ holder: Holder) async -> Holder? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Holder?, Never>) in
            let answer: Holder?? = state.withLock { state in
                switch state.occupant {
                case .free:
                    state.occupant = .writer(holder)
                    return .some(nil)
                case .writer(let other): return .some(other)
                case .audit:
                    state.waiting.append((holder, continuation))
                    return .none
                }
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Takes the gate for a write of the audit log, unless anything holds it.
    func tryEnterForAudit() -> Bool {
        state.withLock { state in
            guard case .free = state.occupant else { return false }
            state.occupant = .audit
            return true
        }
    }

    /// Leaves the gate; after the audit writer, the first waiter takes it and the others learn who did.
    func leave() {
        let (next, refused) = state.withLock {
            state -> ((Holder, CheckedContinuation<Holder?, Never>)?, [(CheckedContinuation<Holder?, Never>, Holder)]) in
            guard case .audit = state.occupant, !state.waiting.isEmpty else {
                state.occupant = .free
                return (nil, [])
            }
            let waiting = state.waiting
            state.waiting = []
            let first = waiting[0]
            state.occupant = .writer(first.holder)
            return ((first.holder, first.resume), waiting.dropFirst().map { ($0.resume, first.holder) })
        }
        if let next {
            next.1.resume(returning: nil)
        } else {
            freed.signal()
        }
        for (continuation, holder) in refused { continuation.resume(returning: holder) }
    }

    /// The import or edit holding the gate now, if any.
    var holder: Holder? {
        state.withLock { state in
            if case .writer(let holder) = state.occupant { return holder }
            return nil
        }
    }

    /// Whether an import or an edit runs now.
    var isOccupied: Bool { holder != nil }

    /// Refuses, with a time to retry, a change an import in progress would have to finish first: deleting or merging
    /// networks while it writes their rows (it would wait for the import's transaction, then undo it or be undone).
    func refuseWhileOccupied(_ what: String) throws {
        if let holder { throw APIError.busy(holder, "\(what) when it has finished") }
    }
}

extension APIError {
    /// 409 `import_in_progress`, naming what holds the gate.
    static func busy(_ holder: ImportGate.Holder, _ advice: String) -> APIError {
        var error = APIError(
            .conflict, code: "import_in_progress",
            message: "\(holder.kind == .import ? "an import" : "a location edit") is running (key \(holder.keyId)); \(advice)", retryAfter: 5)
        error.importRunning = holder
        return error
    }
}
