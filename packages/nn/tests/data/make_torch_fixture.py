"""Writes torch_mlp.safetensors (a torch state_dict) and torch_mlp_io.safetensors (inputs and
torch's outputs). Run with /work/torchvenv/bin/python; the files are committed."""

import torch
from safetensors.torch import save_file


class Net(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.encoder = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Linear(8, 8))
        self.bil = torch.nn.Bilinear(8, 4, 5)
        self.head = torch.nn.Linear(5, 3, bias=False)
        self.register_buffer("scale", torch.tensor([0.5, 2.0, -1.0]))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.encoder(x).tanh()
        return self.head(self.bil(h, x)) * self.scale


torch.manual_seed(0)
model = Net()
x = torch.randn(6, 4)
with torch.no_grad():
    y = model(x)
save_file(model.state_dict(), "torch_mlp.safetensors")
save_file({"x": x, "y": y}, "torch_mlp_io.safetensors")
print(list(model.state_dict()))
