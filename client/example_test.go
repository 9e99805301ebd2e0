package client_test

import (
	"errors"
	"fmt"
	"log"
	"time"

	"zablab/client"
	"zablab/mwzookeeper"
)

// The servers of the 3-peer ensemble in testdata/ensemble3 (make run).
var servers = []string{"127.0.0.1:13181", "127.0.0.1:13281", "127.0.0.1:13381"}

func ExampleConnect() {
	zk, err := client.Connect(servers, 5*time.Second, client.WithConnectTimeout(10*time.Second))
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()
	fmt.Printf("session 0x%x\n", zk.SessionID())
}

func ExampleMWZooKeeper_Create() {
	zk, err := client.Connect(servers, 5*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()
	if _, err := zk.Create("/app", []byte("config"), false); errors.Is(err, mwzookeeper.ErrNodeExists) {
		fmt.Println("someone was first")
	}
	// An ephemeral node lives as long as this session.
	if _, err := zk.Create("/app/worker-1", nil, true); err != nil {
		log.Fatal(err)
	}
}

func ExampleMWZooKeeper_GetData() {
	zk, err := client.Connect(servers, 5*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()
	var st mwzookeeper.MWStat
	data, err := zk.GetData("/app", &st)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s (version %d, changed by zxid 0x%x)\n", data, st.Version, st.Mzxid)
}

// A compare-and-set: the write succeeds only if nobody wrote in between.
func ExampleMWZooKeeper_SetData() {
	zk, err := client.Connect(servers, 5*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()
	for {
		var st mwzookeeper.MWStat
		data, err := zk.GetData("/counter", &st)
		if err != nil {
			log.Fatal(err)
		}
		var n int
		fmt.Sscan(string(data), &n)
		_, err = zk.SetData("/counter", []byte(fmt.Sprint(n+1)), st.Version)
		if errors.Is(err, mwzookeeper.ErrBadVersion) {
			continue // lost the race: read again
		}
		if err != nil {
			log.Fatal(err)
		}
		break
	}
}

func ExampleMWZooKeeper_Delete() {
	zk, err := client.Connect(servers, 5*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()
	if err := zk.Delete("/app/worker-1", -1); errors.Is(err, mwzookeeper.ErrNoNode) {
		fmt.Println("already gone")
	}
}

func ExampleMWZooKeeper_CreateMode() {
	zk, err := client.Connect(servers, 5*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()
	name, err := zk.CreateMode("/queue/item-", []byte("job"), mwzookeeper.PersistentSequential)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(name) // /queue/item-0000000000, then ...01, ...
}

// Wait until a node appears.
func ExampleMWZooKeeper_ExistsW() {
	zk, err := client.Connect(servers, 5*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()
	ok, _, ch, err := zk.ExistsW("/ready")
	if err != nil {
		log.Fatal(err)
	}
	if !ok {
		ev := <-ch
		if ev.Err != nil {
			log.Fatal(ev.Err)
		}
		fmt.Println(ev.Type, ev.Path) // NodeCreated /ready
	}
}

func ExampleMWZooKeeper_GetChildrenW() {
	zk, err := client.Connect(servers, 5*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()
	children, _, ch, err := zk.GetChildrenW("/app")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(children) // sorted
	<-ch                  // one NodeChildrenChanged; call GetChildrenW again for the next
}

// Read your peers' writes on a follower: sync first.
func ExampleMWZooKeeper_Sync() {
	zk, err := client.Connect(servers, 5*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()
	if err := zk.Sync("/app"); err != nil {
		log.Fatal(err)
	}
	data, err := zk.GetData("/app", nil)
	fmt.Println(string(data), err)
}

// Move a job from one queue to another, all or nothing.
func ExampleMWZooKeeper_Multi() {
	zk, err := client.Connect(servers, 5*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()
	res, err := zk.Multi(
		mwzookeeper.Op{Op: mwzookeeper.OpDelete, Path: "/todo/job-1", Version: -1},
		mwzookeeper.Op{Op: mwzookeeper.OpCreate, Path: "/done/job-1", Data: []byte("ok")},
	)
	if err != nil {
		for i, r := range res {
			fmt.Println(i, r.Err) // which op failed
		}
		log.Fatal(err)
	}
}

// Async calls run in call order; so do their callbacks.
func ExampleMWZooKeeper_SetDataAsync() {
	zk, err := client.Connect(servers, 5*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()
	done := make(chan struct{})
	for i := 0; i < 3; i++ {
		zk.SetDataAsync("/counter", []byte(fmt.Sprint(i)), -1, func(st mwzookeeper.MWStat, err error) {
			fmt.Println("version", st.Version, err)
		})
	}
	zk.GetDataAsync("/counter", func(data []byte, _ mwzookeeper.MWStat, err error) {
		fmt.Println(string(data), err) // 2: it was sent after the three writes
		close(done)
	})
	<-done
}

func ExampleMWZooKeeper_Exists() {
	zk, err := client.Connect(servers, 5*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()
	ok, st, err := zk.Exists("/app")
	if err != nil {
		log.Fatal(err)
	}
	if ok {
		fmt.Printf("/app: %d children, ephemeral owner 0x%x\n", st.NumChildren, st.EphemeralOwner)
	}
}

func ExampleMWZooKeeper_GetChildren() {
	zk, err := client.Connect(servers, 5*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()
	children, err := zk.GetChildren("/app")
	fmt.Println(children, err) // names, not paths, sorted
}

// Re-read a configuration whenever it changes.
func ExampleMWZooKeeper_GetDataW() {
	zk, err := client.Connect(servers, 5*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()
	for {
		data, ch, err := zk.GetDataW("/app/config", nil)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("config: %s\n", data)
		if ev := <-ch; ev.Err != nil || ev.Type == mwzookeeper.EventNodeDeleted {
			return
		}
	}
}
