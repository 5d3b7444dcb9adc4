// Package folder is the shared-folder transport of package bus: workers
// write shard files into a folder, the learner reads them and renames each
// one it has taken (".used") or found unreadable (".bad"); networks are
// checkpoint files named iter-NNNNNN.azck, as in a run's checkpoints
// folder, which a worker following the run reads.
//
// It suits one machine or a network file system. Its Source keeps in the
// checkpoint the files of the last round, renamed on resume if the
// learner stopped before it renamed them.
//
// Shard file names carry the shard's description:
//
//	sp-WORKER-SEQUENCE.nNETWORK.gGAMES.tMILLISECONDS.shard
//
// Files named sp-WORKER-SEQUENCE.shard (older workers) are read with the
// network unknown.
package folder
