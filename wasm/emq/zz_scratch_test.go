package emq_test

import (
	"fmt"
	"testing"

	"echomq.dev/playground/internal/redisnet"
	"echomq.dev/playground/internal/redisserver"
	"echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/engine"
)

func TestZZScratch(t *testing.T) {
	srv := redisserver.Start(t)
	c, err := redisnet.Dial(srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New()
	enq, clm := lua.Enqueue().Source, lua.Claim().Source
	cases := [][]string{
		{"HSET", "emq:{o}:job:JOBO", "attempts", "9223372036854775807", "payload", "p"},
		{"ZADD", "emq:{o}:pending", "0", "JOBO"},
		{"EVAL", clm, "2", "emq:{o}:pending", "emq:{o}:active", "emq:{o}:job:", "5"},
		{"HGETALL", "emq:{o}:job:JOBO"},
		{"EVAL", enq, "2", "emq:{m}:job:JOB1", "emq:{m}:pending", "JOB1", "p"},
		{"EVAL", clm, "2", "emq:{m}:pending", "emq:{m}:active", "emq:{m}:job:", "999999999999999"},
		{"ZRANGE", "emq:{m}:active", "0", "-1", "WITHSCORES"},
		{"ZADD", "emq:{m}:pending", "0", ""},
		{"EVAL", clm, "2", "emq:{m}:pending", "emq:{m}:active", "emq:{m}:job:", "1"},
		{"HGETALL", "emq:{m}:job:"},
		{"SET", "emq:{m}:job:JOB2", "x"},
		{"EVAL", enq, "2", "emq:{m}:job:JOB2", "emq:{m}:pending", "JOB2", "p"},
		{"EVAL", enq, "2", "emq:{m}:job:JOB3", "emq:{m}:pending", "JOB3"},
		{"EVAL", enq, "2", "emq:{m}:job:JOB3", "emq:{m}:pending", "JOB3", "p", "x"},
		{"EVAL", "return redis.call('TIME')", "0"},
		}
	for _, args := range cases {
		a, _ := c.Do(args...)
		b, _ := e.Do(args...)
		fmt.Printf("%q\n  redis:  %v\n  engine: %v\n", args[len(args)-min(len(args), 3):], a, b)
	}
}
