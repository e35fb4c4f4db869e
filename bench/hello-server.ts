import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/** The ceiling for the reads benchmark: a bare NestJS + Express endpoint that returns a constant. */
@Controller()
class HelloController {
  @Get('hello')
  hello() {
    return { hello: 'world' };
  }
}

@Module({ controllers: [HelloController] })
class HelloModule {}

const app = await NestFactory.create(HelloModule, { logger: false });
await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
console.log(`READY ${await app.getUrl()}`);
