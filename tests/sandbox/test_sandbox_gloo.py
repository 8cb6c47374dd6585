"""gloo ranks inside one run: a tcp rendezvous on the run's private loopback and a file
rendezvous in its scratch dir; collectives, DDP, DeviceMesh and DTensor on CPU."""

from __future__ import annotations

import textwrap

import pytest

pytestmark = pytest.mark.timeout(300)

RANKS = textwrap.dedent(
    """
    import socket, sys
    import torch.distributed as dist
    import torch.multiprocessing as mp

    def free_port():
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]

    def work(rank, world, init):
        dist.init_process_group("gloo", init_method=init, rank=rank, world_size=world)
        total = torch.tensor([float(rank + 1)])
        dist.all_reduce(total)
        gathered = [torch.zeros(1) for _ in range(world)]
        dist.all_gather(gathered, torch.tensor([float(rank * rank)]))
        sent = torch.tensor([7.0 if rank == 0 else -1.0])
        dist.broadcast(sent, src=0)
        line = f"{rank} {total.item()} {[g.item() for g in gathered]} {sent.item()}\\n"
        sys.stdout.write(line)  # one write per rank: lines from the ranks never mix
        dist.destroy_process_group()
    """
)


@pytest.mark.parametrize("world", [2, 4])
def test_gloo_collectives_over_the_private_loopback(sandbox, world, leftovers):
    code = RANKS + textwrap.dedent(
        f"""
        init = f"tcp://127.0.0.1:{{free_port()}}"
        mp.start_processes(work, args=({world}, init), nprocs={world}, start_method="fork")
        """
    )
    result = sandbox.run(code, timeout=120, memory_mb=2048)
    assert result.ok, result
    lines = sorted(result.stdout.splitlines())
    total = float(sum(range(1, world + 1)))
    squares = [float(r * r) for r in range(world)]
    assert lines == [f"{r} {total} {squares} 7.0" for r in range(world)]
    assert "GLOO_SOCKET_IFNAME" not in result.stderr or "bwrap" not in result.containment
    assert leftovers(sandbox) == []


def test_gloo_file_rendezvous_ddp_device_mesh_dtensor(sandbox):
    code = textwrap.dedent(
        """
        import os, sys
        import torch.distributed as dist
        import torch.multiprocessing as mp
        from torch.distributed.device_mesh import init_device_mesh
        from torch.distributed.tensor import Replicate, Shard, distribute_tensor
        from torch.nn.parallel import DistributedDataParallel as DDP

        def work(rank, world, path):
            dist.init_process_group("gloo", init_method=f"file://{path}", rank=rank,
                                    world_size=world)
            torch.manual_seed(0)
            model = DDP(nn.Linear(3, 1, bias=False))
            model(torch.full((1, 3), float(rank + 1))).sum().backward()
            mesh = init_device_mesh("cpu", (world,))
            whole = torch.arange(8.0).reshape(4, 2)
            sharded = distribute_tensor(whole, mesh, [Shard(0)])
            replicated = sharded.redistribute(mesh, [Replicate()])
            grad, local = model.module.weight.grad.tolist(), sharded.to_local().tolist()
            sys.stdout.write(f"{rank} {grad} {local} {replicated.to_local().sum().item()}\\n")
            dist.destroy_process_group()

        if __name__ == "__main__":
            path = os.path.abspath("rendezvous")
            mp.start_processes(work, args=(2, path), nprocs=2, start_method="fork")
        """
    )
    result = sandbox.run(code, timeout=120, memory_mb=2048)
    assert result.ok, result
    lines = sorted(result.stdout.splitlines())
    # DDP averages the gradients of ranks fed 1s and 2s: 1.5 for every weight
    assert lines == [
        "0 [[1.5, 1.5, 1.5]] [[0.0, 1.0], [2.0, 3.0]] 28.0",
        "1 [[1.5, 1.5, 1.5]] [[4.0, 5.0], [6.0, 7.0]] 28.0",
    ]
