import Foundation

/// What the phones and the admin met, one CSV line each, kept in memory until the run ends (a 60 s run at 200
/// requests a second is 12,000 short lines) so that writing never competes with the load it records.
actor PhoneLog {
    private let directory: String
    private var requests = "started_unix,seconds,outcome,calls\n"
    private var writes = "kind,batch,started_unix,finished_unix,status,rows,rejected\n"

    init(directory: String) throws {
        self.directory = directory
    }

    func request(started: Date, seconds: Double, outcome: String, calls: Int) {
        requests += String(format: "%.4f,%.5f,", started.timeIntervalSince1970, seconds) + "\(outcome),\(calls)\n"
    }

    /// One admin write: `kind` import or location, `batch` its number (a retried import keeps its batch), `status`
    /// the HTTP status (0: no answer), `rows` the rows it carried, `rejected` those the answer said it refused.
    func write(kind: String, batch: Int, started: Date, finished: Date, status: Int, rows: Int, rejected: Int) {
        writes +=
            "\(kind),\(batch),"
            + String(format: "%.4f,%.4f,", started.timeIntervalSince1970, finished.timeIntervalSince1970)
            + "\(status),\(rows),\(rejected)\n"
    }

    func close() throws {
        try requests.write(toFile: "\(directory)/requests.csv", atomically: true, encoding: .utf8)
        try writes.write(toFile: "\(directory)/writes.csv", atomically: true, encoding: .utf8)
    }
}
