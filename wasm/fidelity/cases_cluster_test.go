package fidelity

// clusterCases are the commands a plain redis-server refuses because its
// cluster support is disabled, and the playground answers as a cluster node.
func clusterCases() []fcase {
	return []fcase{
		{id: "commands/cluster-keyslot", desc: "CLUSTER KEYSLOT: the hash slot of a key, from its {tag} when it has one",
			cmds: [][]string{{"CLUSTER", "KEYSLOT", "emq:{q}:pending"}, {"CLUSTER", "KEYSLOT", "emq:q:pending"}}},
	}
}
