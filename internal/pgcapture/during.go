package pgcapture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
)

// During records one capture per configuration, side by side: it starts them all, waits
// until each streams (its Ready; a capture that fails before that counts as ready), runs
// change, and waits until every capture has ended. Each configuration should have a Stop
// condition that the change's last message meets; a capture that ends for another reason is
// an error naming it, after its name. It returns each capture's file in cfgs' order.
func During(ctx context.Context, cfgs []Config, names []string, change func() error) ([][]byte, error) {
	files := make([][]byte, len(cfgs))
	errs := make([]error, len(cfgs))
	var ready, done sync.WaitGroup
	for i, cfg := range cfgs {
		var once sync.Once
		cfg.Ready = func(Result) { once.Do(ready.Done) }
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			defer once.Do(ready.Done)
			var buf bytes.Buffer
			res, err := Capture(ctx, cfg, &buf)
			if err == nil && res.Reason != StoppedCondition {
				err = fmt.Errorf("capture stopped (%s) before the change's end arrived", res.Reason)
			}
			if err != nil {
				err = fmt.Errorf("%s: %w", names[i], err)
			}
			files[i], errs[i] = buf.Bytes(), err
		}()
	}
	ready.Wait()
	if err := change(); err != nil {
		return nil, fmt.Errorf("change: %w", err)
	}
	done.Wait()
	return files, errors.Join(errs...)
}
